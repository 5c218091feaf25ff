import type { SimRequest, SimResponse } from '../../src/simulator/Http.js'
import { handle } from '../../src/simulator/Simulator.js'
import {
  initialState,
  type SimulatorOptions,
  type SimulatorState,
} from '../../src/simulator/State.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'

export const baseUrl = 'http://sandbox.test'
export const t0 = new Date('2026-11-22T01:00:00.000Z')
export const at = (ms: number): Date => new Date(t0.getTime() + ms)

/** A JSON request (content type application/json unless headers say otherwise). */
export const request = (
  method: string,
  path: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): SimRequest => ({
  method,
  path,
  headers: { 'content-type': 'application/json', ...headers },
  body: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
})

export const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` })

export const cardRequest = (number: string = testCards.success.number) => ({
  customer: { id: 'c-1', name: 'Ada', email: 'ada@example.com', phoneNumber: '+50611112222' },
  card: {
    number,
    expirationMonth: '12',
    expirationYear: '2030',
    cvv: '123',
    cardHolder: 'Ada Lovelace',
    singleUse: false,
  },
})

/** A stateful session over the pure simulator, for readable tests. */
export const session = (options: Partial<SimulatorOptions> = {}) => {
  let state: SimulatorState = initialState({ baseUrl, ...options })
  let now = t0
  // Tests read answers as loose JSON; the assertions check the shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const send = (r: SimRequest, when: Date = now): SimResponse & { readonly json: () => any } => {
    const [next, response] = handle(state, r, when)
    state = next
    return { ...response, json: () => JSON.parse(response.body) }
  }
  const token = (): string =>
    send(
      request('POST', '/token', {
        clientId: defaultCredentials.clientId,
        clientSecret: defaultCredentials.clientSecret,
      }),
    ).json().accessToken
  const paymentMethod = (tok: string, number?: string): string =>
    send(request('POST', '/paymentmethods', cardRequest(number), bearer(tok))).json().id
  return {
    send,
    token,
    paymentMethod,
    get state() {
      return state
    },
    set state(s: SimulatorState) {
      state = s
    },
    get now() {
      return now
    },
    set now(d: Date) {
      now = d
    },
  }
}
