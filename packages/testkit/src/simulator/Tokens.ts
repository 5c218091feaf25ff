/**
 * `POST /token` (spec 4.1, 2.1): client credentials in, an access token living
 * `tokenLifetimeSeconds` of the simulator clock out; wrong credentials get 401.
 *
 * @since 0.2.0
 */
import { TokenRequest, validate } from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import { jsonBody, sameSecret } from './Gates.js'
import { badRequest, json, problem } from './Responses.js'
import { through, type Context, type Result } from './Route.js'
import { insert } from './HashTrie.js'
import { dropTimeOf, nextId } from './State.js'

// -------------------------------------------------------------------------------------
// endpoints
// -------------------------------------------------------------------------------------

/**
 * `POST /token`: 200 `{ accessToken, tokenType: "Bearer", expiresIn }`; 400 naming the
 * missing field; 401 when the client id or secret is not the configured one.
 *
 * @category endpoints
 * @since 0.2.0
 */
export const postToken = ({ state, request, atMs }: Context): Result =>
  through(
    state,
    jsonBody(request),
  )((body) => {
    const decoded = validate(TokenRequest)(body)
    if (E.isLeft(decoded)) return [state, badRequest(decoded.left)]
    const { clientId, clientSecret } = decoded.right
    // Both compared, each in constant time, so the answer's timing tells nothing.
    const idOk = sameSecret(clientId, state.config.clientId)
    const secretOk = sameSecret(clientSecret, state.config.clientSecret)
    if (!(idOk && secretOk))
      return [state, problem(401, 'The client id or client secret is not valid.')]
    const [s1, n] = nextId(state, 'token')
    // Deterministic (the simulator is pure); the time part keeps tokens apart across resets.
    const accessToken = `sim_at_${n}_${atMs.toString(36)}`
    const expiresIn = state.config.tokenLifetimeSeconds
    const expiresAtMs = atMs + expiresIn * 1000
    const dropAt = dropTimeOf(s1, expiresAtMs)
    return [
      {
        ...s1,
        tokens: insert(s1.tokens, accessToken, { accessToken, expiresAtMs }),
        deadlines:
          dropAt === undefined
            ? s1.deadlines
            : s1.deadlines.add({ atMs: dropAt, seq: n, kind: 'dropToken', key: accessToken }),
      },
      json(200, { accessToken, tokenType: 'Bearer', expiresIn }),
    ]
  })
