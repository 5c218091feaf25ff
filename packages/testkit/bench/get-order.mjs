// GET /paymentlink/order/{code} with few orders stored, against a bare node:http server
// returning the same bytes: `node packages/testkit/bench/get-order.mjs [--duration 10]
// [--connections 64] [--cpu-prof]`.
import { API_KEY, auth, call, compare, json } from './lib.mjs'

await compare({
  name: 'GET /paymentlink/order/{code}',
  prepare: async (url) => {
    const created = await call(`${url}/paymentlink/checkout`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ amount: 10 }),
    })
    const { orderCode } = JSON.parse(created.body)
    const path = `/paymentlink/order/${orderCode}`
    return {
      request: { path, headers: auth },
      answer: await call(`${url}${path}`, { headers: auth }),
    }
  },
})
