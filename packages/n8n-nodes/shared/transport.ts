/**
 * The core client's `Transport` built on n8n's own request helpers and the `Paykit API`
 * credential: n8n adds the bearer credential (`authenticate`), fetches the access token
 * (`preAuthentication`) and stores it in its credential store.
 *
 * n8n renews the token only when an authenticated request throws with status 401, and
 * then sends it once more. So requests go out with every status returned as a response,
 * and a 401 is sent again through n8n's renewing path, one at a time: the first renews
 * the token, the ones queued behind it find the new token stored and do not renew again.
 * The first request of an execution also runs alone, so that 1,000 items cost one token
 * request, not one per request in flight. A 401 means the service refused the request
 * unread, so sending it again is safe even for a charge.
 *
 * Per request, n8n's helpers would otherwise read the credential again (in n8n: load,
 * decrypt, resolve expressions) and axios would parse a JSON string body to check it. The
 * transport hands n8n the credential data read once for the execution (n8n's documented
 * `credentialsDecrypted` option: n8n writes a new token into it, so every request sees
 * it), and the body as bytes. The connection itself cannot be kept: n8n-core 2.41 builds
 * a new HTTP agent for every request (`@n8n/backend-network` `setAxiosAgents` ->
 * `buildNodeAgents`), and no helper option passes one in.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Transport, TransportRequest, TransportResponse } from '@paykit/core/pure'
import { transportError } from '@paykit/core/pure'
import type {
  IAdditionalCredentialOptions,
  ICredentialDataDecryptedObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  IWebhookFunctions,
} from 'n8n-workflow'
import { CREDENTIAL_ERROR } from './credential'
import { failureOf, statusOf } from './httpErrors'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The credential type the nodes use. */
export const PAYKIT_API = 'paykitApi'

/** A node context with n8n's request helpers: an action node's or the trigger's webhook. */
export type RequestContext = IExecuteFunctions | IWebhookFunctions

/**
 * A transport for one execution, and the credential failure it met, if any (a token that
 * could not be obtained: the message names the field, never a secret).
 */
interface N8nTransport {
  readonly transport: Transport
  readonly credentialFailure: () => string | undefined
}

interface FullResponse {
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, unknown>>
  readonly statusCode?: number
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const headersOf = (headers: FullResponse['headers']): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return out
}

const bodyOf = (body: unknown): string =>
  typeof body === 'string'
    ? body
    : body === undefined || body === null
      ? ''
      : Buffer.isBuffer(body)
        ? body.toString('utf8')
        : JSON.stringify(body)

const credentialMessage = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 5; depth++) {
    const record = e as { name?: unknown; message?: unknown; cause?: unknown }
    if (record.name === CREDENTIAL_ERROR && typeof record.message === 'string')
      return record.message
    e = record.cause
  }
  return undefined
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A transport over `ctx`'s request helpers. It never rejects: an HTTP answer of any status
 * is a response; no answer is a `TransportError` with the socket's reason. `credentials`,
 * the `Paykit API` data read once for the execution, goes with every authenticated
 * request; without it n8n reads the credential again for each.
 */
export const n8nTransport = (
  ctx: RequestContext,
  credentials?: ICredentialDataDecryptedObject,
): N8nTransport => {
  let credentialFailure: string | undefined
  const reference = ctx.getNode().credentials?.[PAYKIT_API]
  const credentialOptions: IAdditionalCredentialOptions | undefined =
    credentials === undefined
      ? undefined
      : {
          credentialsDecrypted: {
            id: reference?.id ?? '',
            name: reference?.name ?? '',
            type: PAYKIT_API,
            data: credentials,
          },
        }
  // Requests wait behind `barrier` while an exclusive one (the first, or a renewal) runs.
  let barrier: Promise<unknown> = Promise.resolve()

  const send = async (
    request: TransportRequest,
    renewOn401: boolean,
  ): Promise<E.Either<ReturnType<typeof transportError>, TransportResponse>> => {
    const options: IHttpRequestOptions = {
      method: request.method,
      url: request.url,
      headers: { ...request.headers },
      // Bytes: axios would JSON.parse a string body with a JSON content type to check it.
      ...(request.body === undefined ? {} : { body: Buffer.from(request.body) }),
      encoding: 'text',
      json: false,
      returnFullResponse: true,
      ignoreHttpStatusErrors: renewOn401 ? { ignore: true, except: [401] } : true,
      disableFollowRedirect: true,
      ...(request.timeoutMs === undefined ? {} : { timeout: request.timeoutMs }),
      ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
    }
    try {
      const response = (
        request.credential === 'none'
          ? await ctx.helpers.httpRequest(options)
          : await ctx.helpers.httpRequestWithAuthentication.call(
              ctx,
              PAYKIT_API,
              options,
              credentialOptions,
            )
      ) as FullResponse
      return E.right({
        status: response.statusCode ?? 0,
        headers: headersOf(response.headers),
        body: bodyOf(response.body),
      })
    } catch (error) {
      const credential = credentialMessage(error)
      if (credential !== undefined) {
        credentialFailure = credential
        return E.left(transportError('refused', 'no access token', 'no'))
      }
      // Still 401 after n8n renewed the token: the service's answer, not a network error.
      const status = statusOf(error)
      if (status !== undefined) return E.right({ status, headers: {}, body: '' })
      const failure = failureOf(error)
      return E.left(transportError(failure, failure))
    }
  }

  const exclusive = <A>(task: () => Promise<A>): Promise<A> => {
    const run = barrier.then(task)
    barrier = run.catch(() => undefined)
    return run
  }

  // The first authenticated request of the execution; the others wait for it to settle,
  // then go side by side with the token it stored.
  let primed: Promise<unknown> | undefined

  const transport: Transport = (request) => async () => {
    if (request.credential === 'none') return send(request, false)
    if (primed === undefined) {
      const first = exclusive(() => send(request, true))
      primed = first.catch(() => undefined)
      return first
    }
    await primed
    await barrier
    const first = await send(request, false)
    if (E.isLeft(first) || first.right.status !== 401) return first
    return exclusive(() => send(request, true))
  }

  return { transport, credentialFailure: () => credentialFailure }
}
