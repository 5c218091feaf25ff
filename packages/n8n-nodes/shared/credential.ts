/**
 * What the `Paykit API` credential does with n8n's request helpers: exchange the client id
 * and secret for an access token (`preAuthentication`), put the right bearer credential on
 * each request (`authenticate`), and test the credential against the service. Every
 * message names the field or the endpoint, never a secret.
 */
import {
  AccessToken,
  TokenRequest,
  authorizationHeader,
  formatFieldErrors,
  validate,
} from '@paykit/core/pure'
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow'
import { failureOf, statusOf } from './httpErrors'
import type { TokenCache } from './tokenCache'
import { credentialKey, processTokenCache } from './tokenCache'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** n8n's `httpRequest` helper, as `preAuthentication` gets it. */
type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const TOKEN_TIMEOUT_MS = 30_000

/** The name of the errors the credential throws, so the transport can tell them apart. */
export const CREDENTIAL_ERROR = 'PaykitCredentialError'

/** An error of the credential itself (no token could be had); its message holds no secret. */
const credentialError = (message: string): Error => {
  const error = new Error(message)
  error.name = CREDENTIAL_ERROR
  return error
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/** The credential's fields as its form names them (messages say these, not the API's). */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  clientId: 'Client ID',
  clientSecret: 'Client Secret',
}

/** The base URL without trailing slashes; an error naming `baseUrl` when it is no http(s) URL. */
export const baseUrlOf = (credentials: ICredentialDataDecryptedObject): string => {
  const raw = text(credentials.baseUrl).trim()
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw credentialError('Paykit API credential: Base URL must be an absolute http(s) URL')
  return raw.replace(/\/+$/, '')
}

/**
 * The payment-link endpoints (`/paymentlink/...`) take the API key when one is set (spec
 * 4.4, 5.4); every other endpoint takes the access token.
 */
const usesApiKey = (url: string, apiKey: string): boolean =>
  apiKey !== '' && /\/paymentlink\//.test(url)

/** Why `POST /token` failed, in words a person can act on; no secret in it. */
const tokenFailure = (baseUrl: string, error: unknown): string => {
  const status = statusOf(error)
  if (status === 401 || status === 403)
    return `Paykit refused the client ID or client secret (POST /token answered ${status}). Check them in the Paykit API credential.`
  if (status !== undefined) return `POST /token answered HTTP ${status} at ${baseUrl}`
  const failure = failureOf(error)
  return failure === 'refused' || failure === 'dns'
    ? `Could not reach Paykit at ${baseUrl} (${failure === 'dns' ? 'unknown host' : 'connection refused'}). Check the Base URL in the Paykit API credential.`
    : `POST /token to ${baseUrl} failed (${failure})`
}

// -------------------------------------------------------------------------------------
// credential steps
// -------------------------------------------------------------------------------------

/**
 * `preAuthentication`: `POST /token` with the client id and secret; the answer decoded by
 * the core's `AccessToken` codec. Resolves with the field n8n stores (`accessToken`). The
 * calls of one process share the token through `cache` (one request in flight, reused until
 * shortly before `expiresIn`); the token in `credentials` is the one n8n found refused (its
 * 401 path), and is never handed back.
 */
export const tokenRequest = async (
  httpRequest: HttpRequest,
  credentials: ICredentialDataDecryptedObject,
  cache: TokenCache = processTokenCache,
): Promise<IDataObject> => {
  const baseUrl = baseUrlOf(credentials)
  const body = validate(TokenRequest)({
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
  })
  if (body._tag === 'Left')
    throw credentialError(
      `Paykit API credential: ${formatFieldErrors(
        body.left.map((e) => ({ ...e, path: FIELD_NAMES[e.path] ?? e.path })),
      )}`,
    )
  const request = body.right
  const fetchToken = async () => {
    let response: unknown
    try {
      response = await httpRequest({
        method: 'POST',
        url: `${baseUrl}/token`,
        body: TokenRequest.encode(request),
        json: true,
        timeout: TOKEN_TIMEOUT_MS,
      })
    } catch (error) {
      throw credentialError(tokenFailure(baseUrl, error))
    }
    const token = validate(AccessToken)(response)
    if (token._tag === 'Left')
      throw credentialError(
        `POST /token answered without a usable token: ${formatFieldErrors(token.left)}`,
      )
    return token.right
  }
  const accessToken = await cache.token(
    credentialKey(baseUrl, request.clientId, request.clientSecret),
    text(credentials.accessToken),
    fetchToken,
  )
  return { accessToken }
}

/**
 * `authenticate`: the bearer credential of the request's endpoint (the API key on the
 * payment-link endpoints when one is set, else the access token).
 */
export const authenticateRequest = (
  credentials: ICredentialDataDecryptedObject,
  requestOptions: IHttpRequestOptions,
): IHttpRequestOptions => {
  const url = `${requestOptions.baseURL ?? ''}${requestOptions.url}`
  const apiKey = text(credentials.apiKey)
  const secret = usesApiKey(url, apiKey) ? apiKey : text(credentials.accessToken)
  return {
    ...requestOptions,
    headers: { ...requestOptions.headers, Authorization: authorizationHeader(secret) },
  }
}
