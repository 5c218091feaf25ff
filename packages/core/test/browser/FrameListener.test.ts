import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  decodeFrameEvent,
  expectedFrom,
  frameOrigin,
  listenForFrameMessage,
  type FrameError,
  type MessageTarget,
} from '../../src/browser/FrameListener.js'
import { FrameMessage } from '../../src/machines/Authentication.js'

// A stand-in for the browser window: it delivers `message` events to its listeners and
// counts them, so a test sees that the listener is removed when it settles.
class FakeWindow implements MessageTarget {
  readonly listeners = new Set<(event: MessageEvent) => void>()
  addEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.listeners.add(listener)
  }
  removeEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.listeners.delete(listener)
  }
  post(event: { origin: string; data: unknown; source?: unknown }): void {
    for (const listener of [...this.listeners]) listener(event as unknown as MessageEvent)
  }
}

const ACS = 'https://acs.example:8443'
const URL_3DS = `${ACS}/3ds/auth_123?lang=es`
const ID = 'auth_123'

const frame = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  MessageType: 'authentication.complete',
  Status: 'SUCCESS',
  AuthenticationId: ID,
  OrderId: 'order-1',
  OrderAmount: 25.5,
  ...overrides,
})

const fields = (result: E.Either<FrameError, FrameMessage>) =>
  E.isRight(result)
    ? {
        MessageType: result.right.MessageType,
        Status: result.right.Status,
        AuthenticationId: result.right.AuthenticationId,
        OrderId: result.right.OrderId,
      }
    : result.left

const settled = async <A>(promise: Promise<A>): Promise<boolean> => {
  let done = false
  void promise.then(() => (done = true))
  await vi.advanceTimersByTimeAsync(0)
  return done
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('listenForFrameMessage', () => {
  const listen = (win: FakeWindow, extra: { signal?: AbortSignal; source?: unknown } = {}) =>
    listenForFrameMessage({
      url: URL_3DS,
      authenticationId: ID,
      timeoutMs: 1000,
      window: win,
      ...(extra as { signal?: AbortSignal; source?: MessageEventSource }),
    })()

  it('resolves with the decoded message from the frame origin for the expected id', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    win.post({ origin: ACS, data: frame() })
    expect(fields(await result)).toEqual({
      MessageType: 'authentication.complete',
      Status: 'SUCCESS',
      AuthenticationId: ID,
      OrderId: 'order-1',
    })
    expect(win.listeners.size).toBe(0)
  })

  it('resolves with a failed status as given', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    win.post({
      origin: ACS,
      data: frame({ MessageType: 'authentication.failed', Status: 'FAILED' }),
    })
    expect(fields(await result)).toMatchObject({
      MessageType: 'authentication.failed',
      Status: 'FAILED',
    })
  })

  it('ignores a well-formed message from another origin and keeps waiting', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    for (const origin of [
      'https://merchant.example',
      'https://acs.example', // same host, other port
      'http://acs.example:8443', // same host and port, other scheme
      'https://evil.acs.example:8443',
      'null',
      '',
    ]) {
      win.post({ origin, data: frame({ Status: 'FAILED', MessageType: 'authentication.failed' }) })
    }
    expect(await settled(result)).toBe(false)
    win.post({ origin: ACS, data: frame() })
    expect(fields(await result)).toMatchObject({ Status: 'SUCCESS' })
  })

  it('ignores messages for another authentication id', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    win.post({ origin: ACS, data: frame({ AuthenticationId: 'auth_999', Status: 'FAILED' }) })
    win.post({ origin: ACS, data: frame({ AuthenticationId: `${ID} ` }) })
    expect(await settled(result)).toBe(false)
    win.post({ origin: ACS, data: frame() })
    expect(fields(await result)).toMatchObject({ AuthenticationId: ID, Status: 'SUCCESS' })
  })

  it('ignores data that is not a frame message', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    for (const data of [
      null,
      42,
      'not json',
      '{"MessageType":',
      {},
      frame({ MessageType: 'authentication.started' }),
      frame({ Status: 'DONE' }),
      frame({ AuthenticationId: 123 }),
      { ...frame(), MessageType: undefined },
    ]) {
      win.post({ origin: ACS, data })
    }
    expect(await settled(result)).toBe(false)
    expect(win.listeners.size).toBe(1)
  })

  it('keeps waiting on a PENDING message and resolves on the final one', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    win.post({ origin: ACS, data: frame({ Status: 'PENDING' }) })
    expect(await settled(result)).toBe(false)
    win.post({
      origin: ACS,
      data: frame({ MessageType: 'authentication.failed', Status: 'EXPIRED' }),
    })
    expect(fields(await result)).toMatchObject({ Status: 'EXPIRED' })
  })

  it('accepts the message posted as JSON text', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    win.post({ origin: ACS, data: JSON.stringify(frame()) })
    expect(fields(await result)).toMatchObject({ Status: 'SUCCESS', AuthenticationId: ID })
  })

  it('with a source, ignores messages posted by any other window', async () => {
    const win = new FakeWindow()
    const iframeWindow = { name: 'the 3DS iframe' }
    const result = listen(win, { source: iframeWindow })
    win.post({ origin: ACS, data: frame({ Status: 'FAILED' }), source: { name: 'another frame' } })
    win.post({ origin: ACS, data: frame({ Status: 'FAILED' }), source: null })
    expect(await settled(result)).toBe(false)
    win.post({ origin: ACS, data: frame(), source: iframeWindow })
    expect(fields(await result)).toMatchObject({ Status: 'SUCCESS' })
  })

  it('gives FrameTimeout after timeoutMs and stops listening', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    await vi.advanceTimersByTimeAsync(999)
    expect(await settled(result)).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const error = await result
    expect(error).toEqual(
      E.left({
        _tag: 'FrameTimeout',
        authenticationId: ID,
        timeoutMs: 1000,
        message: expect.stringContaining('1000 ms') as unknown,
      }),
    )
    expect(win.listeners.size).toBe(0)
  })

  it('gives FrameAborted when the signal fires, and at once when it already has', async () => {
    const win = new FakeWindow()
    const controller = new AbortController()
    const result = listen(win, { signal: controller.signal })
    controller.abort()
    expect(await result).toEqual(
      E.left(expect.objectContaining({ _tag: 'FrameAborted', authenticationId: ID })),
    )
    expect(win.listeners.size).toBe(0)
    expect(await listen(new FakeWindow(), { signal: controller.signal })).toEqual(
      E.left(expect.objectContaining({ _tag: 'FrameAborted' })),
    )
  })

  it('a message after the timeout changes nothing', async () => {
    const win = new FakeWindow()
    const result = listen(win)
    await vi.advanceTimersByTimeAsync(1000)
    win.post({ origin: ACS, data: frame() })
    expect(await result).toEqual(E.left(expect.objectContaining({ _tag: 'FrameTimeout' })))
  })

  it('refuses options that cannot work, naming the field, without listening', async () => {
    const win = new FakeWindow()
    const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
      [{ url: 'acs.example/3ds/1' }, 'url'],
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: 'data:text/html,<p>' }, 'url'],
      [{ authenticationId: '' }, 'authenticationId'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [{ timeoutMs: -5 }, 'timeoutMs'],
      [{ timeoutMs: Number.NaN }, 'timeoutMs'],
      [{ timeoutMs: Number.POSITIVE_INFINITY }, 'timeoutMs'],
      [{ timeoutMs: 2 ** 31 }, 'timeoutMs'],
    ]
    for (const [override, field] of cases) {
      const options = {
        url: URL_3DS,
        authenticationId: ID,
        timeoutMs: 1000,
        window: win,
        ...override,
      }
      const result = await listenForFrameMessage(
        options as Parameters<typeof listenForFrameMessage>[0],
      )()
      expect(result).toEqual(E.left(expect.objectContaining({ _tag: 'FrameOptionsError', field })))
    }
    expect(win.listeners.size).toBe(0)
  })

  it('outside a browser, without a window, says so', async () => {
    const result = await listenForFrameMessage({
      url: URL_3DS,
      authenticationId: ID,
      timeoutMs: 10,
    })()
    expect(result).toEqual(
      E.left(expect.objectContaining({ _tag: 'FrameOptionsError', field: 'window' })),
    )
  })
})

describe('frameOrigin', () => {
  it('is the scheme, host and non-default port of the URL', () => {
    expect(frameOrigin(URL_3DS)).toEqual(E.right(ACS))
    expect(frameOrigin('https://ACS.Example:443/3ds/x#frag')).toEqual(
      E.right('https://acs.example'),
    )
    expect(frameOrigin('http://127.0.0.1:4010/3ds/a')).toEqual(E.right('http://127.0.0.1:4010'))
  })
})

describe('decodeFrameEvent', () => {
  const expected = { origin: ACS, authenticationId: ID }

  test.prop([fc.webUrl({ validSchemes: ['http', 'https'] })])(
    'accepts nothing from any origin other than the expected one',
    (url) => {
      const origin = new URL(url).origin
      fc.pre(origin !== ACS)
      expect(decodeFrameEvent(expected)({ origin, data: frame() })).toEqual(O.none)
    },
  )

  test.prop([fc.string()])('accepts nothing for any other authentication id', (id) => {
    fc.pre(id !== ID)
    expect(
      decodeFrameEvent(expected)({ origin: ACS, data: frame({ AuthenticationId: id }) }),
    ).toEqual(O.none)
  })

  test.prop([fc.anything()])('never throws on any data', (data) => {
    expect(() => decodeFrameEvent(expected)({ origin: ACS, data })).not.toThrow()
  })

  it('gives the same message as the FrameMessage codec', () => {
    const accepted = decodeFrameEvent(expected)({ origin: ACS, data: frame() })
    expect(accepted).toEqual(O.fromEither(FrameMessage.decode(frame())))
    expect(E.isRight(expectedFrom({ url: URL_3DS, authenticationId: ID, timeoutMs: 1 }))).toBe(true)
  })
})
