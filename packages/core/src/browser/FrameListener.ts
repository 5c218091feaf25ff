/**
 * The 3DS frame listener (spec 6.1), the core's browser edge: opens `authentication.url`
 * in an iframe and resolves with the frame's `postMessage`, decoded with the core's
 * `FrameMessage` codec. Only messages from the authentication URL's origin and for the
 * expected `AuthenticationId` count; everything else that reaches the window is ignored.
 *
 * Uses only the DOM (no Node API), so it runs in any browser and is bundled by
 * `scripts/bundle.mjs`.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { FrameMessage, isFinal } from '../machines/Authentication.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * No accepted frame message arrived within `timeoutMs`.
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameTimeout {
  readonly _tag: 'FrameTimeout'
  readonly authenticationId: string
  readonly timeoutMs: number
  readonly message: string
}

/**
 * The caller's `AbortSignal` fired before an accepted frame message arrived.
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameAborted {
  readonly _tag: 'FrameAborted'
  readonly authenticationId: string
  readonly message: string
}

/**
 * An option cannot work (a URL with no http(s) origin, an empty id, a timeout that is not
 * a positive number of milliseconds, no window to listen on): nothing was listened to.
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameOptionsError {
  readonly _tag: 'FrameOptionsError'
  readonly field: 'url' | 'authenticationId' | 'timeoutMs' | 'window'
  readonly message: string
}

/**
 * Why no frame message was obtained.
 *
 * @category model
 * @since 0.2.0
 */
export type FrameError = FrameTimeout | FrameAborted | FrameOptionsError

/**
 * What the listener needs of a window: `message` listeners. `Window` is one. An
 * `EventTarget` is one at run time (tests may pass one), but its types take any `Event`:
 * pass it `as MessageTarget`.
 *
 * @category model
 * @since 0.2.0
 */
export interface MessageTarget {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
}

/**
 * The fields of a `message` event the listener looks at.
 *
 * @category model
 * @since 0.2.0
 */
export type FrameEvent = Pick<MessageEvent, 'origin' | 'data'>

/**
 * What a frame message must match to be accepted: the authentication URL's origin and
 * the authentication id.
 *
 * @category model
 * @since 0.2.0
 */
export interface Expected {
  readonly origin: string
  readonly authenticationId: string
}

/**
 * Options of `listenForFrameMessage`.
 *
 * @category model
 * @since 0.2.0
 */
export interface ListenOptions {
  /** `authentication.url` of the charge response: its origin is the only one accepted. */
  readonly url: string
  /** `authentication.id` of the charge response. */
  readonly authenticationId: string
  /** How long to wait for an accepted message, in milliseconds. */
  readonly timeoutMs: number
  /** Where messages arrive; the global `window` when absent. */
  readonly window?: MessageTarget
  /** When given, only messages posted by this window (the iframe's) are accepted. */
  readonly source?: MessageEventSource
  /** Stops listening with `FrameAborted`. */
  readonly signal?: AbortSignal
}

/**
 * Options of `openAuthenticationFrame`.
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameOptions {
  /** `authentication.url` of the charge response, opened in the iframe. */
  readonly url: string
  /** `authentication.id` of the charge response. */
  readonly authenticationId: string
  /** The element the iframe is appended to (it sizes the frame). */
  readonly container: Element
  /** How long to wait for the buyer, in milliseconds. */
  readonly timeoutMs: number
  /** Closes the frame with `FrameAborted`. */
  readonly signal?: AbortSignal
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A `FrameTimeout` for `authenticationId` after `timeoutMs`.
 *
 * @example
 * ```ts
 * import { frameTimeout } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * const e = frameTimeout('auth_000001', 300_000)
 * assert.equal(e._tag, 'FrameTimeout')
 * assert.match(e.message, /^No 3DS frame message for authentication auth_000001 within 300000 ms/)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const frameTimeout = (authenticationId: string, timeoutMs: number): FrameTimeout => ({
  _tag: 'FrameTimeout',
  authenticationId,
  timeoutMs,
  message: `No 3DS frame message for authentication ${authenticationId} within ${timeoutMs} ms: the buyer did not finish; charge again to get a new authentication.`,
})

/**
 * A `FrameAborted` for `authenticationId`.
 *
 * @example
 * ```ts
 * import { frameAborted } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(frameAborted('auth_000001'), {
 *   _tag: 'FrameAborted',
 *   authenticationId: 'auth_000001',
 *   message: 'Waiting for the 3DS frame message of authentication auth_000001 was aborted.',
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const frameAborted = (authenticationId: string): FrameAborted => ({
  _tag: 'FrameAborted',
  authenticationId,
  message: `Waiting for the 3DS frame message of authentication ${authenticationId} was aborted.`,
})

/**
 * A `FrameOptionsError` naming the option `field`.
 *
 * @example
 * ```ts
 * import { frameOptionsError } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * const e = frameOptionsError('window', 'no window to listen on: pass one')
 * assert.deepEqual(e, {
 *   _tag: 'FrameOptionsError',
 *   field: 'window',
 *   message: 'no window to listen on: pass one',
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const frameOptionsError = (
  field: FrameOptionsError['field'],
  message: string,
): FrameOptionsError => ({ _tag: 'FrameOptionsError', field, message })

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * The origin of an authentication URL (`scheme://host:port`), or an error when the URL is
 * not an absolute http(s) URL.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { frameOrigin } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(
 *   frameOrigin('https://acs.example:8443/3ds/auth_1?lang=es'),
 *   E.right('https://acs.example:8443'),
 * )
 * const relative = frameOrigin('/3ds/auth_1')
 * assert.ok(E.isLeft(relative) && relative.left.field === 'url')
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const frameOrigin = (url: string): E.Either<FrameOptionsError, string> => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return E.left(frameOptionsError('url', 'url must be an absolute http(s) URL'))
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:'
    ? E.right(parsed.origin)
    : E.left(frameOptionsError('url', 'url must be an absolute http(s) URL'))
}

/**
 * Checks the options a listener needs and gives what a message must match.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { expectedFrom } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * const options = {
 *   url: 'https://acs.example/3ds/auth_1',
 *   authenticationId: 'auth_1',
 *   timeoutMs: 60_000,
 * }
 * assert.deepEqual(
 *   expectedFrom(options),
 *   E.right({ origin: 'https://acs.example', authenticationId: 'auth_1' }),
 * )
 * const noTime = expectedFrom({ ...options, timeoutMs: 0 })
 * assert.ok(E.isLeft(noTime) && noTime.left.field === 'timeoutMs')
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const expectedFrom = (options: {
  readonly url: string
  readonly authenticationId: string
  readonly timeoutMs: number
}): E.Either<FrameOptionsError, Expected> => {
  if (typeof options.authenticationId !== 'string' || options.authenticationId.length === 0) {
    return E.left(
      frameOptionsError('authenticationId', 'authenticationId must be a non-empty string'),
    )
  }
  if (
    !Number.isFinite(options.timeoutMs) ||
    options.timeoutMs <= 0 ||
    options.timeoutMs > MAX_TIMEOUT_MS
  ) {
    return E.left(
      frameOptionsError(
        'timeoutMs',
        `timeoutMs must be a number of milliseconds in 1..${MAX_TIMEOUT_MS}`,
      ),
    )
  }
  return E.map((origin: string) => ({ origin, authenticationId: options.authenticationId }))(
    frameOrigin(options.url),
  )
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

// Some 3DS pages post JSON text instead of an object; both decode the same.
const parseData = (data: unknown): unknown => {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data) as unknown
  } catch {
    return data
  }
}

/**
 * The frame message carried by a `message` event, when the event comes from the expected
 * origin, decodes with `FrameMessage`, is for the expected authentication id and carries
 * a final status. A `PENDING` message is no result (the charge flow keeps awaiting), so
 * it is passed over like every other message that does not match.
 *
 * @example
 * ```ts
 * import * as O from 'fp-ts/lib/Option.js'
 * import { decodeFrameEvent } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * const accept = decodeFrameEvent({ origin: 'https://acs.example', authenticationId: 'auth_1' })
 * const data = {
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: 'auth_1',
 *   OrderId: 'order-1',
 *   OrderAmount: 25.5,
 * }
 * const accepted = accept({ origin: 'https://acs.example', data: JSON.stringify(data) }) // JSON text too
 * assert.ok(O.isSome(accepted) && accepted.value.Status === 'SUCCESS')
 * assert.ok(O.isNone(accept({ origin: 'https://evil.example', data }))) // another origin
 * assert.ok(
 *   O.isNone(accept({ origin: 'https://acs.example', data: { ...data, Status: 'PENDING' } })),
 * )
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const decodeFrameEvent =
  (expected: Expected) =>
  (event: FrameEvent): O.Option<FrameMessage> => {
    if (event.origin !== expected.origin) return O.none
    const decoded = FrameMessage.decode(parseData(event.data))
    if (E.isLeft(decoded)) return O.none
    const message = decoded.right
    return message.AuthenticationId === expected.authenticationId && isFinal(message.Status)
      ? O.some(message)
      : O.none
  }

// -------------------------------------------------------------------------------------
// listeners
// -------------------------------------------------------------------------------------

const globalWindow = (): MessageTarget | undefined =>
  typeof window === 'undefined' ? undefined : window

/**
 * Listens on the window for the 3DS frame's message and resolves with the first one that
 * `decodeFrameEvent` accepts; `FrameTimeout` after `timeoutMs`, `FrameAborted` when the
 * signal fires. Each run of the task listens afresh and removes its listener when done.
 * Start it before the frame can post (before setting the iframe's `src`).
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { listenForFrameMessage, type MessageTarget } from '@paykit/core/browser'
 * import assert from 'node:assert/strict'
 *
 * const frameWindow = new EventTarget() // in a page: `window` (the default)
 * const listening = listenForFrameMessage({
 *   url: 'https://acs.example/3ds/auth_1',
 *   authenticationId: 'auth_1',
 *   timeoutMs: 5_000,
 *   window: frameWindow as MessageTarget,
 * })()
 * // What the 3DS page posts to its parent when the buyer completes it.
 * const data = {
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: 'auth_1',
 *   OrderId: 'order-1',
 *   OrderAmount: 25.5,
 * }
 * frameWindow.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', data }))
 * frameWindow.dispatchEvent(new MessageEvent('message', { origin: 'https://acs.example', data }))
 * const message = await listening
 * assert.ok(E.isRight(message) && message.right.AuthenticationId === 'auth_1')
 * ```
 *
 * @category listeners
 * @since 0.2.0
 */
export const listenForFrameMessage =
  (options: ListenOptions): TE.TaskEither<FrameError, FrameMessage> =>
  () =>
    new Promise((resolve) => {
      const checked = expectedFrom(options)
      if (E.isLeft(checked)) return resolve(checked)
      const target = options.window ?? globalWindow()
      if (target === undefined) {
        return resolve(E.left(frameOptionsError('window', 'no window to listen on: pass one')))
      }
      const { authenticationId } = checked.right
      const { signal, source } = options
      if (signal?.aborted === true) return resolve(E.left(frameAborted(authenticationId)))
      const accept = decodeFrameEvent(checked.right)

      const finish = (result: E.Either<FrameError, FrameMessage>): void => {
        clearTimeout(timer)
        target.removeEventListener('message', onMessage)
        signal?.removeEventListener('abort', onAbort)
        resolve(result)
      }
      const onMessage = (event: MessageEvent): void => {
        if (source !== undefined && event.source !== source) return
        const message = accept(event)
        if (O.isSome(message)) finish(E.right(message.value))
      }
      const onAbort = (): void => finish(E.left(frameAborted(authenticationId)))
      const timer = setTimeout(
        () => finish(E.left(frameTimeout(authenticationId, options.timeoutMs))),
        options.timeoutMs,
      )
      target.addEventListener('message', onMessage)
      signal?.addEventListener('abort', onAbort)
    })

/**
 * Opens `url` in an iframe appended to `container`, listens for its message as
 * `listenForFrameMessage` does (and only for messages posted by that iframe), and removes
 * the iframe when a message is accepted, on timeout and on abort.
 *
 * @example
 * ```ts browser
 * import * as E from 'fp-ts/lib/Either.js'
 * import type { ChargeAuthenticationRequired } from '@paykit/core/codecs'
 * import { openAuthenticationFrame } from '@paykit/core/browser'
 *
 * // `charge` is the AUTHENTICATION_REQUIRED answer of POST /charges (from your server).
 * export const authenticate = async (charge: ChargeAuthenticationRequired) => {
 *   const container = document.getElementById('three-ds')
 *   if (container === null) throw new Error('the page has no #three-ds element')
 *   const result = await openAuthenticationFrame({
 *     url: charge.authentication.url,
 *     authenticationId: charge.authentication.id,
 *     container,
 *     timeoutMs: 10 * 60_000,
 *   })()
 *   if (E.isLeft(result)) throw new Error(result.left.message) // FrameTimeout, FrameAborted, ...
 *   return result.right // the FrameMessage: send it to your server, which repeats the charge
 * }
 * ```
 *
 * @category listeners
 * @since 0.2.0
 */
export const openAuthenticationFrame =
  (options: FrameOptions): TE.TaskEither<FrameError, FrameMessage> =>
  async () => {
    const checked = expectedFrom(options)
    if (E.isLeft(checked)) return checked
    const document = options.container.ownerDocument
    const view = document.defaultView
    if (view === null) {
      return E.left(frameOptionsError('window', 'the container is in a document without a window'))
    }
    const iframe = document.createElement('iframe')
    iframe.title = '3-D Secure authentication'
    iframe.style.border = '0'
    iframe.style.width = '100%'
    iframe.style.height = '100%'
    options.container.appendChild(iframe)
    const source = iframe.contentWindow
    const listening = listenForFrameMessage({
      url: options.url,
      authenticationId: options.authenticationId,
      timeoutMs: options.timeoutMs,
      window: view,
      ...(source === null ? {} : { source }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })()
    iframe.src = options.url
    try {
      return await listening
    } finally {
      iframe.remove()
    }
  }
