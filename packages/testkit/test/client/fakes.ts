/**
 * The three fakes the client suite and the scenario table run on, each as a `Fake`: the
 * nock mock and MSW's `setupServer` (in process, on a base URL with a path prefix) and the
 * sandbox (real HTTP on 127.0.0.1).
 */
import { setupServer } from 'msw/node'
import { paykitHandlers } from '../../src/msw/paykitHandlers.js'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { startSandbox } from '../../src/sandbox/startSandbox.js'
import type { Fake } from './suite.js'

export const nockFake = async (): Promise<Fake> => {
  const mock = mockPaymentService({ baseUrl: 'https://api.paykit.test/v1' })
  return {
    ...mock,
    close: async () => {
      mock.restore()
      // Loaded here, as the mock loads it: MSW 3 cannot start once nock is loaded.
      const { default: nock } = await import('nock')
      nock.enableNetConnect()
    },
  }
}

export const sandboxFake = async (): Promise<Fake> => {
  const sandbox = await startSandbox({ expirySweepMs: 0 })
  return { ...sandbox, baseUrl: sandbox.url }
}

/** What MSW 3 gives an `onUnhandledFrame` callback (MSW 2, whose types these are, has none). */
interface UnhandledFrame {
  readonly frame: { readonly data: { readonly request?: Request } }
  readonly defaults: { readonly error: () => void }
}

export const mswFake = async (): Promise<Fake> => {
  const paykit = paykitHandlers({ baseUrl: 'https://msw.paykit.test/v1' })
  const server = setupServer(...paykit.handlers)
  // Anything else is a test's mistake, except the sandbox of another test in this process.
  // MSW 2 reads onUnhandledRequest, MSW 3 onUnhandledFrame (an http frame's data.request).
  const elsewhere = (request: Request): boolean => new URL(request.url).hostname !== '127.0.0.1'
  const options = {
    onUnhandledRequest: (request: Request, print: { readonly error: () => void }) => {
      if (elsewhere(request)) print.error()
    },
    onUnhandledFrame: ({ frame, defaults }: UnhandledFrame) => {
      if (frame.data.request === undefined || elsewhere(frame.data.request)) defaults.error()
    },
  }
  server.listen(options)
  return {
    ...paykit,
    close: async () => {
      server.close()
      paykit.release()
    },
  }
}

/** The fakes by name, as the table prints them. */
export const fakes = [
  ['nock', nockFake],
  ['sandbox', sandboxFake],
  ['msw', mswFake],
] as const
