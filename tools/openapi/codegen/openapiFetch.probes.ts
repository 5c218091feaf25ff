// Wrong bodies do not compile against the types openapi-typescript wrote from openapi.yaml:
// tsc reports each `@ts-expect-error` below that meets no error (TS2578), so a body type
// that takes anything (`unknown`, as before issue 27) fails this file. Never run.
import type createClient from 'openapi-fetch'
import type { paths } from './paykit.js'

type Paykit = ReturnType<typeof createClient<paths>>

/** Payment-link bodies, right and wrong, as a user writes them. */
export const probes = (paykit: Paykit) => [
  paykit.POST('/paymentlink/checkout', { body: { amount: 10 } }),
  paykit.POST('/paymentlink/checkout', { body: { lineItems: [{ sku: 'MUG', quantity: 2 }] } }),
  paykit.POST('/paymentlink/checkout', { body: { amount: 5, orderDescription: null } }),
  // @ts-expect-error amount is a number
  paykit.POST('/paymentlink/checkout', { body: { amount: 'ten' } }),
  // @ts-expect-error the body is an object
  paykit.POST('/paymentlink/checkout', { body: 42 }),
  // @ts-expect-error amount or lineItems is required
  paykit.POST('/paymentlink/checkout', { body: { orderName: 'Mugs' } }),
  // @ts-expect-error orderName is a string
  paykit.POST('/paymentlink/checkout', { body: { amount: 10, orderName: 5 } }),
]
