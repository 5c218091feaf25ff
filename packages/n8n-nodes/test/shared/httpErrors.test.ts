// What n8n's request helpers throw, read back (shared/httpErrors.ts): real failures of the
// axios n8n-core sends with (a closed port, an unknown host, a server that never answers, a
// cancel, a dropped socket, an HTTP error), bare and wrapped as n8n wraps them.
import { createRequire } from 'node:module'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@paykit/tools/lib/freePort'
import { failureOf, statusOf } from '../../shared/httpErrors.js'

// n8n-core's own axios, as its request helpers call it.
type Axios = (config: Readonly<Record<string, unknown>>) => Promise<unknown>
const axios = (
  createRequire(createRequire(import.meta.url).resolve('n8n-core'))('axios') as { default: Axios }
).default

/** What `axios(config)` threw. */
const thrown = async (config: Readonly<Record<string, unknown>>): Promise<unknown> => {
  try {
    await axios({ timeout: 5_000, ...config })
  } catch (error) {
    return error
  }
  throw new Error('the request did not fail')
}

const node: INode = {
  id: '1',
  name: 'Paykit',
  type: 'n8n-nodes-paykit.paykit',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
}
/** The error as n8n's `httpRequestWithAuthentication` rethrows it. */
const wrapped = (error: unknown): NodeApiError => new NodeApiError(node, error as JsonObject)

let server: Server
let url = ''
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/unavailable') {
      res.statusCode = 503
      res.end('{"title":"Service Unavailable"}')
    } else if (req.url === '/drop') req.socket.destroy()
    // /silent: never answered
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
})
afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('statusOf', () => {
  it('reads the status of an HTTP error, bare and wrapped', async () => {
    const error = await thrown({ url: `${url}/unavailable` })
    expect(statusOf(error)).toBe(503)
    expect(statusOf(wrapped(error))).toBe(503)
  })

  it('is undefined when the service did not answer', async () => {
    const error = await thrown({ url: `http://127.0.0.1:${String(await freePort())}/` })
    expect(statusOf(error)).toBeUndefined()
    expect(statusOf(wrapped(error))).toBeUndefined()
  })
})

describe('failureOf', () => {
  it('a closed port: refused', async () => {
    const error = await thrown({ url: `http://127.0.0.1:${String(await freePort())}/` })
    expect(failureOf(error)).toBe('refused')
    expect(failureOf(wrapped(error))).toBe('refused')
  })

  it('an unknown host: dns', async () => {
    const error = await thrown({ url: 'http://paykit.invalid/' })
    expect(failureOf(error)).toBe('dns')
    expect(failureOf(wrapped(error))).toBe('dns')
  })

  it('no answer within the timeout: timeout', async () => {
    const error = await thrown({ url: `${url}/silent`, timeout: 100 })
    expect(failureOf(error)).toBe('timeout')
    expect(failureOf(wrapped(error))).toBe('timeout')
  })

  it('cancelled by its signal: aborted', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const error = await thrown({ url: `${url}/silent`, signal: controller.signal })
    expect(failureOf(error)).toBe('aborted')
  })

  it('the socket closed without an answer: reset', async () => {
    const error = await thrown({ url: `${url}/drop` })
    expect(failureOf(error)).toBe('reset')
    expect(failureOf(wrapped(error))).toBe('reset')
  })

  it('anything else: other', () => {
    expect(failureOf(new Error('something else'))).toBe('other')
    expect(failureOf(undefined)).toBe('other')
  })
})
