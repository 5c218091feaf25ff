/**
 * The client of the payment service: one `TaskEither<PaykitError, A>` per endpoint over an
 * injected `Transport`. Every call validates its input with the core's codecs before
 * anything is sent, decodes the response, refreshes the access token once on a 401, and
 * repeats only what is safe to repeat (never a charge that may have reached the service).
 * No error, and no record given to `onExchange`, carries a secret, token or card datum.
 *
 * @since 0.1.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as t from 'io-ts'
import type { FrameMessage } from './Authentication.js'
import { FrameMessage as FrameMessageCodec } from './Authentication.js'
import type { ChargeRequest, ChargeRequestOutput, ChargeResponse } from './Charge.js'
import {
  ChargeRequest as ChargeRequestCodec,
  ChargeResponse as ChargeResponseCodec,
} from './Charge.js'
import { chargeRequestFor } from './Charge.js'
import type { ChargeFlowState } from './ChargeFlow.js'
import * as ChargeFlow from './ChargeFlow.js'
import { fetchTransport } from './FetchTransport.js'
import type { FieldError, FieldErrorMap } from './FieldError.js'
import { validate } from './FieldError.js'
import type { OrderDetails } from './Order.js'
import { OrderDetails as OrderDetailsCodec } from './Order.js'
import type { OrderStatus } from './OrderStatus.js'
import type { HttpProblem, PaykitError } from './PaykitError.js'
import {
  decodeError,
  httpError,
  networkError,
  timeout,
  unauthorized,
  validationError,
} from './PaykitError.js'
import type { PaymentLinkRequestJson, PaymentLinkResponse } from './PaymentLink.js'
import {
  PaymentLinkRequest as PaymentLinkRequestCodec,
  PaymentLinkResponse as PaymentLinkResponseCodec,
} from './PaymentLink.js'
import type { PaymentMethod, PaymentMethodRequestOutput } from './PaymentMethod.js'
import {
  PaymentMethod as PaymentMethodCodec,
  PaymentMethodRequest as PaymentMethodRequestCodec,
} from './PaymentMethod.js'
import { ProblemDetails } from './Problem.js'
import { redactBody, redactError, redactHeaders, redactJsonText, redactValue } from './Redaction.js'
import type { RequestKind, RetryPolicy } from './Retry.js'
import { decide, defaultRetryPolicy, failure, response as responseOutcome } from './Retry.js'
import type { AccessToken } from './Token.js'
import { AccessToken as AccessTokenCodec, TokenRequest, authorizationHeader } from './Token.js'
import { createTokenCache } from './TokenCache.js'
import type { Transport, TransportError, TransportRequest, TransportResponse } from './Transport.js'
import { transportError } from './Transport.js'
import { HttpUrl, NonEmptyString } from './internal/codec.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The credentials of a client: client id and secret (for `POST /token` and the access
 * token), an API key (for the payment-link endpoints), or both. With an API key the
 * payment-link calls use it; without one they use the access token.
 *
 * @category model
 * @since 0.1.0
 */
export interface Credentials {
  readonly clientId?: string
  readonly clientSecret?: string
  readonly apiKey?: string
}

/**
 * One attempt of one call as `onExchange` sees it, with `Authorization`, `clientSecret`,
 * `accessToken`, the API key, the card number and the CVV replaced by `[redacted]`
 * (`Authorization` keeps its scheme: `Bearer [redacted]`).
 *
 * @category model
 * @since 0.1.0
 */
export interface Exchange {
  readonly operation: string
  readonly attempt: number
  readonly request: {
    readonly method: string
    readonly url: string
    readonly headers: Readonly<Record<string, string>>
    readonly body?: string
  }
  readonly response?: TransportResponse
  readonly error?: TransportError
  readonly durationMs: number
}

/**
 * How to build a client. `timeoutMs` bounds each HTTP attempt (30 s by default); `retry`
 * tunes the backoff of what is safe to repeat; `onExchange` sees every attempt, redacted
 * (a hook that throws is ignored); `now` and `sleep` are the clock (for tests).
 *
 * @category model
 * @since 0.1.0
 */
export interface ClientConfig {
  readonly baseUrl: string
  readonly credentials: Credentials
  readonly transport?: Transport
  readonly timeoutMs?: number
  readonly retry?: Partial<RetryPolicy>
  readonly onExchange?: (exchange: Exchange) => void
  readonly now?: () => number
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/**
 * Options every call takes: a signal to cancel it.
 *
 * @category model
 * @since 0.1.0
 */
export interface CallOptions {
  readonly signal?: AbortSignal
}

/**
 * Options of `charge`: with `paymentMethod`, the charge is validated by
 * `chargeRequestFor(paymentMethod)` (billingInfo required for USA and CAN cards).
 *
 * @category model
 * @since 0.1.0
 */
export interface ChargeOptions extends CallOptions {
  readonly paymentMethod?: { readonly bin: { readonly countryCode: string } }
}

/**
 * Options of `createPaymentLink`: `retry: true` opts in to repeating a link creation that
 * may have reached the service (a repeat can create a second link).
 *
 * @category model
 * @since 0.1.0
 */
export interface PaymentLinkOptions extends CallOptions {
  readonly retry?: boolean
}

/**
 * Options of `chargeWith3ds`: those of `charge`, and how many 3DS authentications and
 * frame messages per authentication to go through before stopping (3 and 10).
 *
 * @category model
 * @since 0.1.0
 */
export interface ChargeWith3dsOptions extends ChargeOptions {
  readonly maxAuthentications?: number
  readonly maxFrameMessages?: number
}

/**
 * Options of `waitForOrderStatus`: give up after `timeoutMs`; poll first after
 * `intervalMs`, then 1.5 times longer each time up to `maxIntervalMs` (10 x intervalMs).
 *
 * @category model
 * @since 0.1.0
 */
export interface WaitOptions extends CallOptions {
  readonly timeoutMs: number
  readonly intervalMs: number
  readonly maxIntervalMs?: number
}

/**
 * A charge request as the caller writes it (amounts as numbers); `authenticationId` may
 * be left out (null: the first attempt).
 *
 * @category model
 * @since 0.1.0
 */
export type ChargeRequestInput = Omit<ChargeRequestOutput, 'authenticationId'> & {
  readonly authenticationId?: string | null
}

type LineItemJson = NonNullable<PaymentLinkRequestJson['lineItems']>[number]

/**
 * A line item as the caller writes it: `product.requiresShipping` may be left out.
 *
 * @category model
 * @since 0.1.0
 */
export type LineItemInput = LineItemJson extends infer L
  ? L extends { readonly product: infer P }
    ? Omit<L, 'product'> & {
        readonly product: Omit<P, 'requiresShipping'> & { readonly requiresShipping?: boolean }
      }
    : L
  : never

/**
 * A payment-link request as the caller writes it; `orderName`, `expirationMinutes` and
 * `product.requiresShipping` may be left out (their defaults apply).
 *
 * @category model
 * @since 0.1.0
 */
export type PaymentLinkRequestInput = Omit<
  PaymentLinkRequestJson,
  'orderName' | 'expirationMinutes' | 'lineItems'
> & {
  readonly orderName?: string
  readonly expirationMinutes?: number
  readonly lineItems?: ReadonlyArray<LineItemInput>
}

/**
 * What the 3DS step is: open `url` in a frame and yield the frame message posted for
 * authentication `id` (the browser listener of `@paykit/core`'s browser entry does this).
 *
 * @category model
 * @since 0.1.0
 */
export type Authenticate = (url: string, id: string) => TE.TaskEither<PaykitError, FrameMessage>

/**
 * The client: one method per endpoint, the 3DS flow and a poll of an order's status.
 *
 * @category model
 * @since 0.1.0
 */
export interface Client {
  /** A valid access token (`POST /token`, cached; one request shared by concurrent calls). */
  readonly getToken: (options?: CallOptions) => TE.TaskEither<PaykitError, string>
  /** `POST /paymentmethods`: registers a card. Never retried once it may have been sent. */
  readonly createPaymentMethod: (
    request: PaymentMethodRequestOutput,
    options?: CallOptions,
  ) => TE.TaskEither<PaykitError, PaymentMethod>
  /**
   * `POST /charges`. A FAILED or AUTHENTICATION_REQUIRED charge is a `Right` (the service
   * answered); a charge that may have reached the service is never repeated.
   */
  readonly charge: (
    request: ChargeRequestInput,
    options?: ChargeOptions,
  ) => TE.TaskEither<PaykitError, ChargeResponse>
  /** `POST /paymentlink/checkout` (the API key when configured, else the access token). */
  readonly createPaymentLink: (
    request: PaymentLinkRequestInput,
    options?: PaymentLinkOptions,
  ) => TE.TaskEither<PaykitError, PaymentLinkResponse>
  /** `GET /paymentlink/order/{orderCode}` (retried on network errors and 5xx). */
  readonly getOrder: (
    orderCode: string,
    options?: CallOptions,
  ) => TE.TaskEither<PaykitError, OrderDetails>
  /**
   * A charge through 3DS: charges, and while the service asks for authentication, calls
   * `authenticate(url, id)` and repeats the charge only after `authentication.complete`
   * with Status SUCCESS for that id. Resolves with the last state of the charge flow
   * (Succeeded, Failed or AuthenticationFailed; AwaitingAuthentication when the bounds
   * of the options were reached).
   */
  readonly chargeWith3ds: (
    request: ChargeRequestInput,
    authenticate: Authenticate,
    options?: ChargeWith3dsOptions,
  ) => TE.TaskEither<PaykitError, ChargeFlowState>
  /** Polls an order until its status is one of `statuses`, or a `Timeout` error. */
  readonly waitForOrderStatus: (
    orderCode: string,
    statuses: ReadonlyArray<OrderStatus>,
    options: WaitOptions,
  ) => TE.TaskEither<PaykitError, OrderDetails>
}

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

type Auth = 'none' | 'token' | 'paymentLink'

interface Call<A> {
  readonly operation: string
  readonly kind: RequestKind
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: unknown
  readonly auth: Auth
  readonly decoder: t.Type<A, unknown, unknown>
  readonly optIn: boolean
  readonly signal: AbortSignal | undefined
  /** Request data to keep out of errors and logs (card number, CVV). */
  readonly secrets: ReadonlyArray<string>
}

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

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve()
    const onAbort = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })

const cardSecrets = (request: unknown): ReadonlyArray<string> => {
  const card = (request as { card?: { number?: unknown; cvv?: unknown } } | null)?.card
  const out: Array<string> = []
  if (typeof card?.number === 'string') out.push(card.number, card.number.replace(/\D/g, ''))
  if (typeof card?.cvv === 'string') out.push(card.cvv)
  return out
}

const aborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true

const TOKEN = 'POST /token'
const PAYMENT_METHODS = 'POST /paymentmethods'
const CHARGES = 'POST /charges'
const CHECKOUT = 'POST /paymentlink/checkout'

const OrderCode = NonEmptyString

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A client of the service at `baseUrl`. Nothing is sent until a method's task runs; the
 * first call that needs a token fetches it.
 *
 * @category constructors
 * @since 0.1.0
 */
export const createClient = (config: ClientConfig): Client => {
  const transport = config.transport ?? fetchTransport()
  const timeoutMs = config.timeoutMs ?? 30_000
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...config.retry }
  const now = config.now ?? Date.now
  const sleep = config.sleep ?? defaultSleep
  const { clientId, clientSecret, apiKey } = config.credentials
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

  const report = (exchange: Exchange, extra: ReadonlyArray<string>): void => {
    if (config.onExchange === undefined) return
    const all = [...secrets, ...extra]
    const { request, response, error } = exchange
    const record: Exchange = {
      ...exchange,
      ...(error === undefined ? {} : { error: redactValue(error, all) as TransportError }),
      request: {
        method: request.method,
        url: redactJsonText(request.url, all),
        headers: redactHeaders(request.headers, all),
        ...(request.body === undefined ? {} : { body: redactBody(request.body, all) }),
      },
      ...(response === undefined
        ? {}
        : {
            response: {
              status: response.status,
              headers: redactHeaders(response.headers, all),
              body: redactBody(response.body, all),
            },
          }),
    }
    try {
      config.onExchange(record)
    } catch {
      // A logging hook must never break a payment.
    }
  }

  /** One HTTP exchange with the retries the policy allows for this kind of request. */
  const exchange = async <A>(
    call: Call<A>,
    authorization: string | undefined,
  ): Promise<E.Either<PaykitError, TransportResponse>> => {
    const request: TransportRequest = {
      method: call.method,
      url: `${base}${call.path}`,
      headers: {
        accept: 'application/json',
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(authorization === undefined ? {} : { authorization }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      timeoutMs,
    }
    const next = decide(policy, call.kind, call.optIn)
    for (let attempt = 1; ; attempt++) {
      const started = now()
      let result: E.Either<TransportError, TransportResponse>
      try {
        result = await transport(request)()
      } catch {
        // A transport must not reject; one that does is treated as a dropped connection.
        result = E.left(transportError('other', 'the transport threw'))
      }
      report(
        {
          operation: call.operation,
          attempt,
          request,
          ...(E.isRight(result) ? { response: result.right } : { error: result.left }),
          durationMs: now() - started,
        },
        call.secrets,
      )
      const outcome = E.isRight(result)
        ? responseOutcome(result.right.status)
        : failure(result.left)
      const decision = next(attempt, outcome, Math.random())
      if (decision._tag === 'Retry' && !aborted(call.signal)) {
        await sleep(decision.delayMs, call.signal)
        if (!aborted(call.signal)) continue
      }
      if (E.isRight(result)) return result
      const error = result.left
      return E.left(
        error.failure === 'timeout'
          ? timeout(call.operation, timeoutMs)
          : networkError(call.operation, error.sent, error.failure, error.detail),
      )
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
    return E.mapLeft((errors: ReadonlyArray<FieldError>) =>
      decodeError(call.operation, response.status, errors),
    )(validate(call.decoder)(json))
  }

  const tokenCall = (signal: AbortSignal | undefined): Call<AccessToken> => ({
    operation: TOKEN,
    kind: 'token',
    method: 'POST',
    path: '/token',
    body: { clientId, clientSecret },
    auth: 'none',
    decoder: AccessTokenCodec,
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
    const response = await exchange(call, undefined)
    if (E.isLeft(response)) return response
    if (response.right.status === 401 || response.right.status === 403)
      return E.left(unauthorized(TOKEN, 'clientCredentials'))
    const token = judge(call, response.right)
    if (E.isRight(token)) secrets.add(token.right.accessToken)
    return token
  }

  const tokens = createTokenCache({ fetchToken, now })

  /** Runs a call with its credential; a 401 on an access token is cured once. */
  const perform = async <A>(call: Call<A>): Promise<E.Either<PaykitError, A>> => {
    if (baseUrlErrors.length > 0) return E.left(validationError(baseUrlErrors, 'client config'))
    const useToken = call.auth === 'token' || (call.auth === 'paymentLink' && !apiKey)
    if (!useToken) {
      const authorization =
        call.auth === 'paymentLink' && apiKey ? authorizationHeader(apiKey) : undefined
      const response = await exchange(call, authorization)
      if (E.isLeft(response)) return response
      if (response.right.status === 401) return E.left(unauthorized(call.operation, 'apiKey'))
      return judge(call, response.right)
    }
    for (let round = 1; round <= 2; round++) {
      const token = await tokens.get(call.signal)()
      if (E.isLeft(token)) return token
      const response = await exchange(call, authorizationHeader(token.right))
      if (E.isLeft(response)) return response
      if (response.right.status !== 401) return judge(call, response.right)
      tokens.invalidate(token.right)
    }
    return E.left(unauthorized(call.operation, 'accessToken'))
  }

  const run =
    <A>(call: Call<A>): TE.TaskEither<PaykitError, A> =>
    async () => {
      try {
        return E.mapLeft(clean(call.secrets))(await perform(call))
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

  // ---------------------------------------------------------------------------------
  // endpoints
  // ---------------------------------------------------------------------------------

  const getToken: Client['getToken'] = (options = {}) => {
    const get = tokens.get(options.signal)
    return async () => E.mapLeft(clean([]))(await get())
  }

  const createPaymentMethod: Client['createPaymentMethod'] = (request, options = {}) => {
    const extra = cardSecrets(request)
    const input = validate(PaymentMethodRequestCodec)(request)
    if (E.isLeft(input)) return invalid('payment method request', extra)(input.left)
    return run({
      operation: PAYMENT_METHODS,
      kind: 'paymentMethod',
      method: 'POST',
      path: '/paymentmethods',
      body: PaymentMethodRequestCodec.encode(input.right),
      auth: 'token',
      decoder: PaymentMethodCodec,
      optIn: false,
      signal: options.signal,
      secrets: extra,
    })
  }

  const chargeCall = (
    request: ChargeRequest,
    codec: t.Encoder<ChargeRequest, unknown>,
    signal: AbortSignal | undefined,
  ): Call<ChargeResponse> => ({
    operation: CHARGES,
    kind: 'charge',
    method: 'POST',
    path: '/charges',
    body: codec.encode(request),
    auth: 'token',
    decoder: ChargeResponseCodec,
    optIn: false,
    signal,
    secrets: [],
  })

  const chargeCodecFor = (options: ChargeOptions) =>
    options.paymentMethod === undefined
      ? ChargeRequestCodec
      : chargeRequestFor(options.paymentMethod)

  const charge: Client['charge'] = (request, options = {}) => {
    const codec = chargeCodecFor(options)
    const input = validate(codec)(request)
    if (E.isLeft(input)) return invalid('charge request', [])(input.left)
    return run(chargeCall(input.right, codec, options.signal))
  }

  const createPaymentLink: Client['createPaymentLink'] = (request, options = {}) => {
    const input = validate(PaymentLinkRequestCodec)(request)
    if (E.isLeft(input)) return invalid('payment link request', [])(input.left)
    return run({
      operation: CHECKOUT,
      kind: 'paymentLink',
      method: 'POST',
      path: '/paymentlink/checkout',
      body: PaymentLinkRequestCodec.encode(input.right),
      auth: 'paymentLink',
      decoder: PaymentLinkResponseCodec,
      optIn: options.retry === true,
      signal: options.signal,
      secrets: [],
    })
  }

  const getOrder: Client['getOrder'] = (orderCode, options = {}) => {
    const input = validate(OrderCode)(orderCode)
    if (E.isLeft(input))
      return invalid('order code', [])(input.left.map((e) => ({ ...e, path: 'orderCode' })))
    return run({
      operation: `GET /paymentlink/order/${input.right}`,
      kind: 'read',
      method: 'GET',
      path: `/paymentlink/order/${encodeURIComponent(input.right)}`,
      auth: 'paymentLink',
      decoder: OrderDetailsCodec,
      optIn: false,
      signal: options.signal,
      secrets: [],
    })
  }

  const chargeWith3ds: Client['chargeWith3ds'] = (request, authenticate, options = {}) => {
    const codec = chargeCodecFor(options)
    const input = validate(codec)(request)
    if (E.isLeft(input)) return invalid('charge request', [])(input.left)
    const maxAuthentications = options.maxAuthentications ?? 3
    const maxFrameMessages = options.maxFrameMessages ?? 10
    return async () => {
      let state = ChargeFlow.start(input.right)
      let authentications = 0
      let frameMessages = 0
      for (;;) {
        const next = ChargeFlow.nextRequest(state)
        if (O.isSome(next)) {
          const response = await run(chargeCall(next.value, codec, options.signal))()
          if (E.isLeft(response)) return response
          const moved = ChargeFlow.reduce(state, ChargeFlow.chargeResponded(response.right))
          if (E.isLeft(moved)) return E.right(state)
          state = moved.right
          continue
        }
        if (state._tag !== 'AwaitingAuthentication') return E.right(state)
        if (frameMessages === 0) authentications++
        if (authentications > maxAuthentications || frameMessages >= maxFrameMessages)
          return E.right(state)
        frameMessages++
        const raw = await authenticate(state.url, state.authenticationId)()
        if (E.isLeft(raw)) return E.left(clean([])(raw.left))
        // The message may come from any code: decode it again before trusting it.
        const message = FrameMessageCodec.is(raw.right)
          ? E.right(raw.right)
          : validate(FrameMessageCodec)(raw.right)
        if (E.isLeft(message)) return invalid('3DS frame message', [])(message.left)()
        const moved = ChargeFlow.reduce(state, ChargeFlow.frameMessageReceived(message.right))
        if (E.isLeft(moved))
          return invalid(
            '3DS frame message',
            [],
          )([
            {
              path: 'AuthenticationId',
              message: `${moved.left.message}; the charge was not repeated`,
            },
          ])()
        if (moved.right._tag !== 'AwaitingAuthentication') frameMessages = 0
        state = moved.right
      }
    }
  }

  const waitForOrderStatus: Client['waitForOrderStatus'] = (orderCode, statuses, options) => {
    const errors: Array<FieldError> = [
      ...(statuses.length === 0
        ? [{ path: 'statuses', message: 'must name at least one status' }]
        : []),
      ...(options.timeoutMs > 0 ? [] : [{ path: 'timeoutMs', message: 'must be greater than 0' }]),
      ...(options.intervalMs > 0
        ? []
        : [{ path: 'intervalMs', message: 'must be greater than 0' }]),
    ]
    if (errors.length > 0) return invalid('wait options', [])(errors)
    const maxInterval = Math.max(
      options.intervalMs,
      options.maxIntervalMs ?? options.intervalMs * 10,
    )
    const timedOut = (detail: string): E.Either<PaykitError, never> =>
      E.left(
        timeout(
          `waiting for order ${orderCode} to be ${statuses.join(' or ')}`,
          options.timeoutMs,
          detail,
        ),
      )
    return async () => {
      const started = now()
      // A poll that hangs must not outlive the deadline: it is cancelled (for transports
      // that honour the signal) and no longer awaited (for those that do not).
      const deadline = new AbortController()
      let onDeadline: () => void = () => undefined
      const expired = new Promise<'expired'>((resolve) => {
        onDeadline = () => resolve('expired')
      })
      const timer = setTimeout(() => {
        deadline.abort()
        onDeadline()
      }, options.timeoutMs)
      const signal =
        options.signal === undefined
          ? deadline.signal
          : AbortSignal.any([options.signal, deadline.signal])
      let last = 'no answer yet'
      try {
        let interval = options.intervalMs
        for (;;) {
          const order = await Promise.race([getOrder(orderCode, { signal })(), expired])
          if (order === 'expired') return timedOut(last)
          if (E.isLeft(order))
            return deadline.signal.aborted && options.signal?.aborted !== true
              ? timedOut(last)
              : order
          const status = order.right.orderStatus
          if (statuses.includes(status)) return order
          last = `last status ${status}`
          const remaining = options.timeoutMs - (now() - started)
          if (remaining <= 0 || signal.aborted) return timedOut(last)
          // The last poll falls on the deadline rather than giving up an interval early.
          await sleep(Math.min(interval, remaining), signal)
          interval = Math.min(maxInterval, interval * 1.5)
        }
      } finally {
        clearTimeout(timer)
      }
    }
  }

  return {
    getToken,
    createPaymentMethod,
    charge,
    createPaymentLink,
    getOrder,
    chargeWith3ds,
    waitForOrderStatus,
  }
}
