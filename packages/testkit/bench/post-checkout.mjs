// POST /paymentlink/checkout (each request creates an order), against a bare node:http
// server returning the same bytes: `node packages/testkit/bench/post-checkout.mjs
// [--duration 10] [--connections 64] [--cpu-prof]`.
import { auth, call, compare, json } from './lib.mjs'

const body = JSON.stringify({ amount: 10, orderName: 'bench' })
await compare({
  name: 'POST /paymentlink/checkout',
  prepare: async (url) => ({
    request: { method: 'POST', path: '/paymentlink/checkout', headers: { ...json, ...auth }, body },
    answer: await call(`${url}/paymentlink/checkout`, {
      method: 'POST',
      headers: { ...json, ...auth },
      body,
    }),
  }),
})
