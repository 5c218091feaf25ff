/**
 * What a user reads when an item fails: the core's errors in the node's words. The core
 * names its own options (`timeoutMs`, `baseUrl`) and joins a problem's title, which may end
 * with a full stop, with a stop of its own; the node names what its editor shows
 * (_Request Timeout (Seconds)_, the _Base URL_ of the _Paykit API_ credential) and joins
 * sentences with exactly one stop. A request that changes the service's state and may have
 * been processed says so for what it is (a charge, a link, a card); a payment link that may
 * exist says that its order code is unknown, and does not advise to send it again.
 */
import type { FieldError, PaykitError } from '@paykit/core/pure'
import {
  formatFieldErrors,
  fromErrorMap,
  matchError,
  transportFailureText,
} from '@paykit/core/pure'

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** The credential field the core calls `baseUrl`. */
const BASE_URL = 'the Base URL of the Paykit API credential'

/** The option the core calls `timeoutMs` for each HTTP request. */
const REQUEST_TIMEOUT = 'Options → Request Timeout (Seconds)'

/** The field the core calls `timeoutMs` for Payment Link → Wait for Status. */
const WAIT_TIMEOUT = 'Wait Timeout (Seconds)'

const CHARGE = 'POST /charges'
const LINK = 'POST /paymentlink/checkout'
const CARD = 'POST /paymentmethods'

/** What may have happened, for each request that changes the service's state. */
const MAY_HAVE: Readonly<Record<string, string>> = {
  [CHARGE]: 'The charge may have been processed',
  [LINK]: 'The link may have been created, and its order code is unknown',
  [CARD]: 'The card may have been registered, and its payment method ID is unknown',
}

/** What to do then (the error's description). */
const ADVICE: Readonly<Record<string, string>> = {
  [CHARGE]:
    'The node never repeats it by itself. To learn the outcome, run the same charge again with the same Order ID, never a new one: the service refuses a second charge of an order that succeeded (FAILED, DUPLICATE_ORDER), so the repeat cannot charge twice.',
  [LINK]:
    'Its order code never arrived, so nobody can be sent that link, and it expires unused ' +
    '(Expiration (Minutes), 1440 by default); the service cannot look a link up by its order ' +
    'reference. Create another link for the order only if it still needs one: each creation ' +
    'makes a new link. The node sends a creation again by itself only with Options → Retry ' +
    'Uncertain Link Creation on.',
  [CARD]:
    'Register the card again to get its ID: a repeat leaves at most an unused payment method.',
}

const hintOf = (operation: string, status: number): string =>
  status === 400
    ? 'Fix the fields named and run it again'
    : status === 403
      ? 'The Paykit API credential is not allowed to do this'
      : status === 404
        ? operation.startsWith('GET /paymentlink/order/')
          ? 'Check the order code (the orderCode returned when the link was created)'
          : `Check ${BASE_URL}`
        : status === 429
          ? 'Too many requests: wait and try again'
          : status >= 500
            ? 'The service failed; try again later'
            : 'See the status and the problem details'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Sentences joined with exactly one full stop after each, whatever stops the parts already
 * end with (a problem's title often has one); empty parts are left out.
 */
export const sentences = (...parts: ReadonlyArray<string>): string =>
  parts
    .map((part) => part.trim().replace(/\.+$/, ''))
    .filter((part) => part !== '')
    .map((part) => (/[!?]$/.test(part) ? part : `${part}.`))
    .join(' ')

/** Field errors on one line, without the stops a service's messages may end with. */
const fieldsText = (errors: ReadonlyArray<FieldError>): string =>
  formatFieldErrors(
    errors.map(({ path, message }) => ({ path, message: message.replace(/\.+$/, '') })),
  )

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`

/**
 * Whether the request may have changed the service's state: a request that changes state
 * (a charge, a link, a card) that may have been processed (a success status the client
 * could not read, an error status other than 4xx, a dropped connection or a time limit
 * after sending), or any error the core marks `outcomeUnknown` (an earlier attempt may
 * have been processed).
 */
const mayHaveChangedState = (error: PaykitError): boolean => {
  if ('outcomeUnknown' in error && error.outcomeUnknown === true) return true
  if (error._tag === 'ValidationError' || !(error.operation in MAY_HAVE)) return false
  switch (error._tag) {
    case 'DecodeError':
    case 'Timeout':
      return true
    case 'HttpError':
      return error.status < 400 || error.status > 499
    case 'NetworkError':
      return error.sent === 'maybe'
    default:
      return false
  }
}

/** `mayHaveChangedState` where this error itself does not show it: an earlier attempt did. */
const earlierAttempt = (error: PaykitError): boolean =>
  mayHaveChangedState(error) &&
  (error._tag === 'Unauthorized' ||
    (error._tag === 'HttpError' && error.status >= 400 && error.status < 500) ||
    (error._tag === 'NetworkError' && error.sent === 'no'))

/** The sentences that end a message whose request may have changed state. */
const outcome = (error: PaykitError, operation: string): ReadonlyArray<string> =>
  mayHaveChangedState(error)
    ? [
        earlierAttempt(error) ? 'An earlier attempt may have reached the service' : '',
        MAY_HAVE[operation] ?? 'It may have been processed',
      ]
    : []

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * What to do about `error` when its request may have changed the service's state (a
 * charge, a payment link, a card that may exist); undefined otherwise.
 */
export const unknownOutcomeAdviceOf = (error: PaykitError): string | undefined =>
  error._tag !== 'ValidationError' && mayHaveChangedState(error)
    ? ADVICE[error.operation]
    : undefined

/** The message of `error` in the node's words: its field names, one stop per sentence. */
export const messageOf: (error: PaykitError) => string = matchError<string>({
  ValidationError: (e) => e.message,
  HttpError: (e) =>
    sentences(
      `${e.operation} failed with HTTP ${e.status}${e.problem === undefined ? '' : `: ${e.problem.title}`}`,
      e.problem?.errors === undefined ? '' : fieldsText(fromErrorMap(e.problem.errors)),
      ...(mayHaveChangedState(e) ? outcome(e, e.operation) : [hintOf(e.operation, e.status)]),
    ),
  DecodeError: (e) =>
    sentences(
      `${e.operation} answered HTTP ${e.status} with ${
        e.fieldErrors.length === 1 && e.fieldErrors[0]?.path === ''
          ? `a body that ${e.fieldErrors[0].message}`
          : `an answer that does not match the service contract (${fieldsText(e.fieldErrors)})`
      }`,
      ...(mayHaveChangedState(e)
        ? outcome(e, e.operation)
        : [`Check that ${BASE_URL} points at the payment service`]),
    ),
  NetworkError: (e) =>
    sentences(
      `${e.operation} got no response: ${transportFailureText(e.failure)}`,
      e.sent === 'no'
        ? mayHaveChangedState(e)
          ? 'This attempt was not sent'
          : `It was not sent; check ${BASE_URL} and the network, then try again`
        : mayHaveChangedState(e)
          ? ''
          : 'It may have reached the service; sending it again is harmless',
      ...outcome(e, e.operation),
    ),
  Timeout: (e) => {
    if (e.operation.startsWith('waiting for ')) {
      const last = / ms \(([^)]*)\)/.exec(e.message)?.[1]
      return sentences(
        `Stopped ${e.operation} after ${seconds(e.timeoutMs)}${last === undefined ? '' : ` (${last})`}`,
        `Raise ${WAIT_TIMEOUT} to wait longer`,
      )
    }
    return sentences(
      `${e.operation} did not finish within ${seconds(e.timeoutMs)}`,
      ...(mayHaveChangedState(e)
        ? outcome(e, e.operation)
        : [`Try again later, or raise ${REQUEST_TIMEOUT}`]),
    )
  },
  Unauthorized: (e) =>
    sentences(
      e.credential === 'clientCredentials'
        ? `${e.operation} was refused (HTTP 401): check the Client ID and Client Secret of the Paykit API credential`
        : `${e.operation} was refused (HTTP 401) with ${
            e.credential === 'apiKey'
              ? 'the API Key of the Paykit API credential (its access token when API Key is empty)'
              : 'the access token of the Paykit API credential'
          }, also after n8n fetched a new token: check the credential and its permissions`,
      mayHaveChangedState(e) ? '' : 'It was not processed',
      ...outcome(e, e.operation),
    ),
})
