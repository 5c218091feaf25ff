/**
 * One call of the client: the request sent with the retries its kind allows, each attempt
 * bounded by the timeout and shown (redacted) to `onExchange`, the access token fetched
 * and refreshed once on a 401 (or, when the transport holds the credentials, left to the
 * transport), the response judged (decoded or an `HttpError`) and every error cleared of
 * the secrets the client has seen. Transport, clock and sleep are injected, never defaulted.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as t from 'io-ts'
import type { Client, ClientConfigWithRuntime, Exchange, Sleep } from './Client.js'
import type { FieldError, FieldErrorMap } from '../model/FieldError.js'
import { validate } from '../model/FieldError.js'
import type { HttpProblem, PaykitError } from './PaykitError.js'
import {
  decodeError,
  httpError,
  networkError,
  timeoutError,
  unauthorizedError,
  unknownOutcomeAdvice,
  validationError,
} from './PaykitError.js'
import { ProblemDetails } from '../model/Problem.js'
import { redactBody, redactError, redactHeaders, redactUrl, redactValue } from './Redaction.js'
import type { RequestKind, RetryPolicy } from './Retry.js'
import { decide, defaultRetryPolicy, failure, response as responseOutcome } from './Retry.js'
import type { AccessToken } from '../model/Token.js'
import {
  AccessToken as AccessTokenCodec,
  TokenRequest,
  authorizationHeader,
} from '../model/Token.js'
import { createTokenCache } from './TokenCache.js'
import type {
  TransportCredential,
  TransportError,
  TransportRequest,
  TransportResponse,
} from './Transport.js'
import { transportError } from './Transport.js'
import { HttpUrl } from '../internal/codec.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The credential a call needs: none, the access token, or the payment-link credential
 * (the API key when configured, else the access token). The transport is told it too.
 *
 * @category model
 * @since 0.2.0
 */
type Auth = TransportCredential

/**
 * One call: the request, how to decode its success, and what may be repeated.
 *
 * @category model
 * @since 0.2.0
 */
export interface Call<A> {
  readonly operation: string
  readonly kind: RequestKind
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: unknown
  readonly auth: Auth
  /** `validate` of the success codec, built once per endpoint (not per call). */
  readonly decode: (u: unknown) => E.Either<ReadonlyArray<FieldError>, A>
  readonly optIn: boolean
  readonly signal: AbortSignal | undefined
  /** Request data to keep out of errors and logs (card number, CVV). */
  readonly secrets: ReadonlyArray<string>
}

/**
 * What the endpoints of a client share: running a call, the errors of bad input, the
 * redaction of errors, the token and the clock.
 *
 * @category model
 * @since 0.2.0
 */
export interface Caller {
  /** Runs a call with its credential and retries; the task never rejects. */
  readonly run: <A>(call: Call<A>) => TE.TaskEither<PaykitError, A>
  /** A `ValidationError` naming `what`, cleared of the client's secrets and `extra`. */
  readonly invalid: (
    what: string,
    extra: ReadonlyArray<string>,
  ) => (errors: ReadonlyArray<FieldError>) => TE.TaskEither<PaykitError, never>
  /** Clears an error of every secret the client has seen and of `extra`. */
  readonly clean: (extra: ReadonlyArray<string>) => (e: PaykitError) => PaykitError
  /** A valid access token (cached; one request shared by concurrent calls). */
  readonly getToken: Client['getToken']
  readonly now: () => number
  readonly sleep: Sleep
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const HttpErrorsMap = t.record(t.string, t.readonlyArray(t.string))

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/** Messages of one `errors` entry whatever its form: a string, an array, a nested map. */
const messagesOf = (name: string, value: unknown): ReadonlyArray<[string, Array<string>]> => {
  if (value === null || value === undefined) return []
  if (isRecord(value))
    return Object.entries(value).flatMap(([key, v]) => messagesOf(`${name}.${key}`, v))
  const list = Array.isArray(value) ? (value as ReadonlyArray<unknown>) : [value]
  const messages = list.flatMap((m) =>
    typeof m === 'string' ? [m] : m === null || typeof m === 'object' ? [] : [String(m)],
  )
  return messages.length === 0 ? [] : [[name, messages]]
}

/**
 * The 400 `errors` member as field name -> messages. The spec says names and structure
 * vary: names are kept as given, and an entry in another form (a single string, a nested
 * map) is read rather than dropped with the whole map.
 */
const errorsMapOf = (errors: unknown): FieldErrorMap | undefined => {
  if (HttpErrorsMap.is(errors)) return errors
  if (!isRecord(errors)) return undefined
  return Object.fromEntries(Object.entries(errors).flatMap(([name, v]) => messagesOf(name, v)))
}

/** The problem details of an error body, if it has them; `errors` kept as given. */
const problemOf = (body: string): HttpProblem | undefined => {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return undefined
  }
  const decoded = validate(ProblemDetails)(json)
  if (E.isLeft(decoded)) return undefined
  const p = decoded.right
  const errors = errorsMapOf((json as { errors?: unknown }).errors)
  return {
    title: p.title,
    status: p.status,
    ...(p.type === undefined ? {} : { type: p.type }),
    ...(p.detail === undefined ? {} : { detail: p.detail }),
    ...(p.instance === undefined ? {} : { instance: p.instance }),
    ...(errors === undefined ? {} : { errors }),
  }
}

/** A success status decoded, or the error status as an `HttpError`. */
const judge = <A>(call: Call<A>, response: TransportResponse): E.Either<PaykitError, A> => {
  if (response.status < 200 || response.status > 299)
    return E.left(httpError(call.operation, response.status, problemOf(response.body)))
  let json: unknown
  try {
    json = JSON.parse(response.body)
  } catch {
    return E.left(
      decodeError(call.operation, response.status, [{ path: '', message: 'is not valid JSON' }]),
    )
  }
  const decoded = call.decode(json)
  return E.isRight(decoded)
    ? decoded
    : E.left(decodeError(call.operation, response.status, decoded.left))
}

/** The exchange as `onExchange` may see it: every part cleared of `secrets`. */
const redactExchange = (exchange: Exchange, secrets: ReadonlyArray<string>): Exchange => {
  const { request, response, error } = exchange
  return {
    ...exchange,
    ...(error === undefined ? {} : { error: redactValue(error, secrets) as TransportError }),
    request: {
      method: request.method,
      url: redactUrl(request.url, secrets),
      headers: redactHeaders(request.headers, secrets),
      ...(request.body === undefined ? {} : { body: redactBody(request.body, secrets) }),
    },
    ...(response === undefined
      ? {}
      : {
          response: {
            status: response.status,
            headers: redactHeaders(response.headers, secrets),
            body: redactBody(response.body, secrets),
          },
        }),
  }
}

const aborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true

/**
 * What the attempts of one call left behind: `uncertain` once an attempt that may have
 * been processed (sent `'maybe'`, or answered 5xx) was repeated, which only a caller's
 * opt-in allows for a request that changes state.
 */
interface Trace {
  uncertain: boolean
}

/**
 * The error of a call one of whose earlier attempts may have been processed: whatever the
 * last attempt met (a refused connection, a 4xx, a 401), a request that changes state may
 * have been processed, so `outcomeUnknown` is true and the message says what to do.
 */
const afterUncertainAttempt =
  (operation: string) =>
  (e: PaykitError): PaykitError => {
    const advice = unknownOutcomeAdvice(operation)
    if (e.outcomeUnknown || e._tag === 'ValidationError' || advice === undefined) return e
    return {
      ...e,
      outcomeUnknown: true,
      message: `${e.message} An earlier attempt may have been processed. ${advice}`,
    }
  }

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * The card number (as written and as digits) and the CVV of a request, to keep out of
 * errors and logs.
 *
 * @category utils
 * @since 0.2.0
 */
export const cardSecrets = (request: unknown): ReadonlyArray<string> => {
  const card = (request as { card?: { number?: unknown; cvv?: unknown } } | null)?.card
  const out: Array<string> = []
  if (typeof card?.number === 'string') out.push(card.number, card.number.replace(/\D/g, ''))
  if (typeof card?.cvv === 'string') out.push(card.cvv)
  return out
}

const TOKEN = 'POST /token'
const decodeAccessToken = validate(AccessTokenCodec)

/** The credential a refused call used, as `Unauthorized` names it. */
const credentialOf = (auth: Auth): 'accessToken' | 'apiKey' =>
  auth === 'paymentLink' ? 'apiKey' : 'accessToken'

const heldByTransport: PaykitError = validationError(
  [
    {
      path: 'credentials',
      message: "is 'transport': the transport holds the access token, the client has none",
    },
  ],
  'getToken call',
)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The caller of a client built from `config`, over its injected transport, clock and
 * sleep. It holds the token cache and the secrets the client has seen (its credentials and
 * every access token it was given).
 *
 * @category constructors
 * @since 0.2.0
 */
export const createCaller = (config: ClientConfigWithRuntime): Caller => {
  const { transport, now, sleep } = config
  const timeoutMs = config.timeoutMs ?? 30_000
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...config.retry }
  // The transport authenticates: no token of the client's own, no Authorization header.
  const byTransport = config.credentials === 'transport'
  const { clientId, clientSecret, apiKey } = byTransport ? {} : config.credentials
  const apiKeyAuthorization = apiKey ? authorizationHeader(apiKey) : undefined
  const base = config.baseUrl.replace(/\/+$/, '')
  const baseUrlErrors: ReadonlyArray<FieldError> = E.isRight(validate(HttpUrl)(config.baseUrl))
    ? []
    : [{ path: 'baseUrl', message: 'must be an absolute http(s) URL' }]

  // Every secret the client has seen: errors and exchange records are cleared of them.
  const secrets = new Set<string>(
    [clientSecret, apiKey].filter((s): s is string => s !== undefined && s !== ''),
  )
  const clean =
    (extra: ReadonlyArray<string>) =>
    (e: PaykitError): PaykitError =>
      redactError([...secrets, ...extra])(e)

  // Without a hook there is no record to build, time or redact (`report?.(...)` skips it).
  const { onExchange } = config
  const report =
    onExchange === undefined
      ? undefined
      : (exchange: Exchange, extra: ReadonlyArray<string>): void => {
          const record = redactExchange(exchange, [...secrets, ...extra])
          try {
            onExchange(record)
          } catch {
            // A logging hook must never break a payment.
          }
        }

  /**
   * One HTTP exchange with the retries the policy allows for this kind of request; `trace`
   * learns when an attempt that may have been processed is repeated.
   */
  const exchange = async <A>(
    call: Call<A>,
    authorization: string | undefined,
    trace: Trace | undefined,
  ): Promise<E.Either<PaykitError, TransportResponse>> => {
    // Built member by member, not from spreads of optional parts (~3x the cost).
    const headers: Record<string, string> = { accept: 'application/json' }
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    if (authorization !== undefined) headers['authorization'] = authorization
    const request: Writable<TransportRequest> = {
      method: call.method,
      url: base + call.path,
      headers,
    }
    if (call.body !== undefined) request.body = JSON.stringify(call.body)
    if (call.signal !== undefined) request.signal = call.signal
    request.timeoutMs = timeoutMs
    request.credential = call.auth
    let next: ReturnType<typeof decide> | undefined
    for (let attempt = 1; ; attempt++) {
      const started = report === undefined ? 0 : now()
      let result: E.Either<TransportError, TransportResponse>
      try {
        result = await transport(request)()
      } catch {
        // A transport must not reject; one that does is treated as a dropped connection.
        result = E.left(transportError('other', 'the transport threw'))
      }
      report?.(
        {
          operation: call.operation,
          attempt,
          request,
          ...(E.isRight(result) ? { response: result.right } : { error: result.left }),
          durationMs: now() - started,
        },
        call.secrets,
      )
      // A response under 500 is never repeated (`isRetryable`): the common case skips the
      // retry rules, which allocate an outcome, a decision and two closures per attempt.
      if (E.isRight(result) && result.right.status < 500) return result
      const outcome = E.isRight(result)
        ? responseOutcome(result.right.status)
        : failure(result.left)
      next ??= decide(policy, call.kind, call.optIn)
      const decision = next(attempt, outcome, Math.random())
      if (decision._tag === 'Retry' && !aborted(call.signal)) {
        // A 5xx (a Right here) or a failure after sending: the attempt may have been processed.
        if (trace !== undefined && (E.isRight(result) || result.left.sent === 'maybe'))
          trace.uncertain = true
        await sleep(decision.delayMs, call.signal)
        if (!aborted(call.signal)) continue
      }
      if (E.isRight(result)) return result
      const error = result.left
      return E.left(
        error.failure === 'timeout'
          ? timeoutError(call.operation, timeoutMs)
          : networkError(call.operation, error.sent, error.failure, error.detail),
      )
    }
  }

  const tokenCall = (signal: AbortSignal | undefined): Call<AccessToken> => ({
    operation: TOKEN,
    kind: 'token',
    method: 'POST',
    path: '/token',
    body: { clientId, clientSecret },
    auth: 'none',
    decode: decodeAccessToken,
    optIn: false,
    signal,
    secrets: [],
  })

  const fetchToken: TE.TaskEither<PaykitError, AccessToken> = async () => {
    const input = validate(TokenRequest)({ clientId, clientSecret })
    if (E.isLeft(input))
      return E.left(
        validationError(
          input.left.map((e) => ({ ...e, path: `credentials.${e.path}` })),
          'credentials (POST /token needs clientId and clientSecret)',
        ),
      )
    const call = tokenCall(undefined)
    const response = await exchange(call, undefined, undefined)
    if (E.isLeft(response)) return response
    if (response.right.status === 401 || response.right.status === 403)
      return E.left(unauthorizedError(TOKEN, 'clientCredentials'))
    const token = judge(call, response.right)
    if (E.isRight(token)) secrets.add(token.right.accessToken)
    return token
  }

  const tokens = createTokenCache({ fetchToken, now })

  /** Runs a call with its credential; a 401 on an access token is cured once. */
  const perform = async <A>(call: Call<A>, trace: Trace): Promise<E.Either<PaykitError, A>> => {
    if (baseUrlErrors.length > 0) return E.left(validationError(baseUrlErrors, 'client config'))
    if (byTransport) {
      const response = await exchange(call, undefined, trace)
      if (E.isLeft(response)) return response
      // The transport renewed its credential and sent again already: a 401 is final.
      if (response.right.status === 401)
        return E.left(unauthorizedError(call.operation, credentialOf(call.auth), 'transport'))
      return judge(call, response.right)
    }
    const useToken = call.auth === 'accessToken' || (call.auth === 'paymentLink' && !apiKey)
    if (!useToken) {
      const authorization = call.auth === 'paymentLink' ? apiKeyAuthorization : undefined
      const response = await exchange(call, authorization, trace)
      if (E.isLeft(response)) return response
      if (response.right.status === 401) return E.left(unauthorizedError(call.operation, 'apiKey'))
      return judge(call, response.right)
    }
    for (let round = 1; round <= 2; round++) {
      const token = await tokens.get(call.signal)()
      if (E.isLeft(token)) return token
      const response = await exchange(call, authorizationHeader(token.right), trace)
      if (E.isLeft(response)) return response
      if (response.right.status !== 401) return judge(call, response.right)
      tokens.invalidate(token.right)
    }
    return E.left(unauthorizedError(call.operation, 'accessToken'))
  }

  const run =
    <A>(call: Call<A>): TE.TaskEither<PaykitError, A> =>
    async () => {
      try {
        const trace: Trace = { uncertain: false }
        const result = await perform(call, trace)
        if (E.isRight(result)) return result
        const e = trace.uncertain ? afterUncertainAttempt(call.operation)(result.left) : result.left
        return E.left(clean(call.secrets)(e))
      } catch {
        // Defensive: no code path should throw; if one does, it must not reject the task.
        return E.left(clean(call.secrets)(networkError(call.operation, 'maybe', 'other')))
      }
    }

  const invalid =
    (what: string, extra: ReadonlyArray<string>) =>
    (errors: ReadonlyArray<FieldError>): TE.TaskEither<PaykitError, never> =>
    async () =>
      E.left(clean(extra)(validationError(errors, what)))

  const getToken: Client['getToken'] = (options = {}) => {
    if (byTransport) return async () => E.left(heldByTransport)
    const get = tokens.get(options.signal)
    return async () => E.mapLeft(clean([]))(await get())
  }

  return { run, invalid, clean, getToken, now, sleep }
}
