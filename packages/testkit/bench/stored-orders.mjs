// Throughput of GET /paymentlink/order/{code} and POST /paymentlink/checkout with no order
// stored, then with N stored (default 100,000, created through the API), and the ratio:
// `node packages/testkit/bench/stored-orders.mjs [--orders 100000] [--duration 10]`.
// A bare node:http server returning the GET's bytes is measured in the same run.
import {
  auth,
  measureServer,
  call,
  flags,
  json,
  line,
  measure,
  rssMb,
  sameBytes,
  startBare,
  startSandbox,
  stop,
} from './lib.mjs'

const o = flags({ orders: { type: 'string', default: '100000' } })
const connections = Number(o.connections)
const duration = Number(o.duration)
const sandbox = await startSandbox()
const body = JSON.stringify({ amount: 10, orderName: 'bench' })
const post = { method: 'POST', path: '/paymentlink/checkout', headers: { ...json, ...auth }, body }
try {
  const created = JSON.parse((await call(`${sandbox.url}${post.path}`, { ...post })).body)
  const get = { path: `/paymentlink/order/${created.orderCode}`, headers: auth }
  const answer = await call(`${sandbox.url}${get.path}`, { headers: auth })
  const bare = await startBare(sameBytes(answer))
  await measure({ url: bare.url, ...get, connections, duration: 2 })
  const b = await measureServer(bare, { ...get, connections, duration })
  console.log(line('bare node:http GET bytes', b, rssMb(bare.pid)))
  await stop(bare)
  await measure({ url: sandbox.url, ...get, connections, duration: 2 })
  const get0 = await measureServer(sandbox, { ...get, connections, duration })
  console.log(line('GET order, 1 order', get0, rssMb(sandbox.pid)))
  const post0 = await measureServer(sandbox, { ...post, connections, amount: 20000 })
  console.log(line('POST checkout, ~1 order', post0, rssMb(sandbox.pid)))
  const fill = Number(o.orders)
  const f = await measure({ url: sandbox.url, ...post, connections, amount: fill })
  console.log(line(`filling ${fill} orders`, f, rssMb(sandbox.pid)))
  await measure({ url: sandbox.url, ...get, connections, duration: 2 })
  const getN = await measureServer(sandbox, { ...get, connections, duration })
  console.log(line(`GET order, ${fill} orders`, getN, rssMb(sandbox.pid)))
  const postN = await measureServer(sandbox, { ...post, connections, amount: 20000 })
  console.log(line(`POST checkout, ${fill} orders`, postN, rssMb(sandbox.pid)))
  const ratio = (n, one) =>
    `${(n.rps / one.rps).toFixed(2)} req/s, ${(n.cpuUsPerRequest / one.cpuUsPerRequest).toFixed(2)} CPU per request`
  console.log(`ratio GET ${fill}/1 orders: ${ratio(getN, get0)}`)
  console.log(`ratio POST ${fill}/1 orders: ${ratio(postN, post0)}`)
  console.log(`ratio GET sandbox/bare: ${(get0.rps / b.rps).toFixed(2)}`)
} finally {
  await stop(sandbox)
}
