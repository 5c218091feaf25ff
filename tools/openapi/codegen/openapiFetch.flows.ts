// The service's flows through openapi-fetch and the types openapi-typescript wrote from
// openapi.yaml (./paykit.ts, written by ../codegen.test.ts with the core README's command):
// nothing of paykit, as a user of another stack writes them.
import createClient from 'openapi-fetch'
import type { FlowInputs, FlowResults } from './flows.js'
import type { paths } from './paykit.js'

const bearer = (credential: string) => ({ Authorization: `Bearer ${credential}` })

const must = <A>(answer: { data?: A; response: Response }, step: string): A => {
  if (answer.data === undefined) throw new Error(`${step}: ${answer.response.status}`)
  return answer.data
}

/** Token, card, charge with 3DS completed headlessly, link, order read, a 400 and a 401. */
export const runFlows = async (inputs: FlowInputs): Promise<FlowResults> => {
  const paykit = createClient<paths>({ baseUrl: inputs.baseUrl })
  const { clientId, clientSecret } = inputs
  const token = must(await paykit.POST('/token', { body: { clientId, clientSecret } }), 'token')
  const auth = { headers: bearer(token.accessToken) }

  const card = { number: inputs.card3ds, expirationMonth: '12', expirationYear: '2030', cvv: '123' }
  const method = must(await paykit.POST('/paymentmethods', { ...auth, body: { card } }), 'card')
  const order = { id: inputs.orderId, amount: 25.5 }
  const charge = must(
    await paykit.POST('/charges', { ...auth, body: { order, cardId: method.id } }),
    'charge',
  )
  if (charge.status !== 'AUTHENTICATION_REQUIRED') throw new Error(`charge: ${charge.status}`)
  const page = await fetch(`${charge.authentication.url}?result=success`)
  const after = must(
    await paykit.POST('/charges', {
      ...auth,
      body: { order, cardId: method.id, authenticationId: charge.authentication.id },
    }),
    'charge after 3DS',
  )
  if (after.status !== 'SUCCEEDED') throw new Error(`charge after 3DS: ${after.status}`)

  const merchant = { headers: bearer(inputs.apiKey) }
  const link = must(
    await paykit.POST('/paymentlink/checkout', {
      ...merchant,
      body: { amount: 49.9, orderReference: `INV-${inputs.orderId}` },
    }),
    'link',
  )
  const read = must(
    await paykit.GET('/paymentlink/order/{orderCode}', {
      ...merchant,
      params: { path: { orderCode: link.orderCode } },
    }),
    'order',
  )

  const unknownCard = await paykit.POST('/charges', {
    ...auth,
    body: { order: { id: `${inputs.orderId}-x`, amount: 1 }, cardId: 'pm_unknown' },
  })
  const problem = unknownCard.error
  if (problem === undefined || !('errors' in problem)) throw new Error('no 400 problem')
  const refused = await paykit.GET('/paymentlink/order/{orderCode}', {
    headers: bearer('not-a-key'),
    params: { path: { orderCode: link.orderCode } },
  })
  if (refused.error === undefined) throw new Error('no 401 problem')

  return {
    tokenType: token.tokenType,
    cardBrand: method.bin.brand,
    charge: charge.status,
    authenticationPage: page.status,
    chargeAfter3ds: after.status,
    chargedReference: after.order.reference,
    linkOrderCode: link.orderCode,
    orderStatus: read.orderStatus,
    orderTotal: read.total,
    badRequest: {
      status: problem.status,
      fields: Object.keys(problem.errors),
      detail: problem.detail,
    },
    unauthorized: { status: refused.error.status, title: refused.error.title },
  }
}
