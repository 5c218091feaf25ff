// Wrong bodies do not compile against the SDK @hey-api/openapi-ts wrote from openapi.yaml:
// tsc reports each `@ts-expect-error` below that meets no error (TS2578), so a body type
// that takes too much fails this file. Never run.
import { createPaymentLink } from './hey-api/sdk.gen.js'

/** Payment-link bodies, right and wrong, as a user writes them. */
export const probes = () => [
  createPaymentLink({ body: { amount: 10 } }),
  createPaymentLink({ body: { lineItems: [{ sku: 'MUG', quantity: 2 }] } }),
  createPaymentLink({ body: { amount: 5, orderDescription: null } }),
  // @ts-expect-error amount is a number
  createPaymentLink({ body: { amount: 'ten' } }),
  // @ts-expect-error the body is an object
  createPaymentLink({ body: 42 }),
  // @ts-expect-error amount or lineItems is required
  createPaymentLink({ body: { orderName: 'Mugs' } }),
  // @ts-expect-error orderName is a string
  createPaymentLink({ body: { amount: 10, orderName: 5 } }),
]
