import * as E from 'fp-ts/lib/Either.js'
import type { AddressInfo } from 'node:net'
import { getEventListeners } from 'node:events'
import * as http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { classifyFetchError, fetchTransport } from '../../src/edge/FetchTransport.js'
import type { TransportRequest } from '../../src/client/Transport.js'

const servers: Array<http.Server> = []

/** A real HTTP server on 127.0.0.1, port 0; closed after each test. */
const serve = async (handler: http.RequestListener): Promise<string> => {
  const server = http.createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

const get = (url: string, extra: Partial<TransportRequest> = {}): TransportRequest => ({
  method: 'GET',
  url,
  headers: { accept: 'application/json' },
  ...extra,
})

describe('FetchTransport', () => {
  it('sends method, headers and body, and returns status, lower-case headers and body', async () => {
    let seen: { method?: string | undefined; auth?: string | undefined; body: string } = {
      body: '',
    }
    const base = await serve((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        seen = { method: req.method, auth: req.headers.authorization, body }
        res.writeHead(201, { 'Content-Type': 'application/json', 'X-Thing': 'A' })
        res.end('{"ok":true}')
      })
    })
    const r = await fetchTransport()({
      method: 'POST',
      url: `${base}/charges`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"a":1}',
    })()
    expect(r).toEqual(
      E.right(
        expect.objectContaining({
          status: 201,
          body: '{"ok":true}',
          headers: expect.objectContaining({ 'content-type': 'application/json', 'x-thing': 'A' }),
        }),
      ),
    )
    expect(seen).toEqual({ method: 'POST', auth: 'Bearer t', body: '{"a":1}' })
  })

  it('returns error statuses as responses (the client judges them)', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(500)
      res.end('oops')
    })
    const r = await fetchTransport()(get(base))()
    expect(E.isRight(r) && r.right.status).toBe(500)
  })

  it('reports a refused connection as not sent', async () => {
    const base = await serve(() => undefined)
    const closing = servers.pop()
    await new Promise((r) => closing?.close(r))
    const r = await fetchTransport()(get(base))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'refused', sent: 'no' })))
  })

  it('reports a connection reset by the server as maybe sent', async () => {
    const base = await serve((req) => req.socket.destroy())
    const r = await fetchTransport()(get(base))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'reset', sent: 'maybe' })))
  })

  it('times out a server that hangs, distinguishably, as maybe sent', async () => {
    const base = await serve(() => undefined)
    const t0 = Date.now()
    const r = await fetchTransport()(get(base, { timeoutMs: 100 }))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'timeout', sent: 'maybe' })))
    expect(Date.now() - t0).toBeLessThan(2000)
  })

  it('uses the transport default timeout when the request gives none', async () => {
    const base = await serve(() => undefined)
    const r = await fetchTransport({ timeoutMs: 80 })(get(base))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'timeout' })))
  })

  it('times out a body that never finishes', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' })
      res.write('{"partial":')
    })
    const r = await fetchTransport()(get(base, { timeoutMs: 150 }))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'timeout', sent: 'maybe' })))
  })

  it('reports a body cut short as a body failure, maybe sent', async () => {
    const base = await serve((req, res) => {
      res.writeHead(200, { 'Content-Length': '100' })
      res.write('{"partial":', () => setTimeout(() => req.socket.destroy(), 20))
    })
    const r = await fetchTransport()(get(base))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'body', sent: 'maybe' })))
  })

  it("reports the caller's cancel as aborted, not as a timeout", async () => {
    const base = await serve(() => undefined)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const r = await fetchTransport()(get(base, { signal: controller.signal, timeoutMs: 5000 }))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'aborted', sent: 'maybe' })))
  })

  it('leaves no timer running once the body is read (a script exits after its last call)', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end('{"ok":true}')
    })
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    const send = fetchTransport({ timeoutMs: 60_000 })
    const results = await Promise.all(Array.from({ length: 5 }, () => send(get(base))()))
    expect(results.every(E.isRight)).toBe(true)
    // (a timer of another test may end meanwhile: the count must not grow)
    expect(timers()).toBeLessThanOrEqual(before)
  })

  it("keeps no listener on the caller's signal once its requests end", async () => {
    const base = await serve((_req, res) => res.end('{}'))
    const controller = new AbortController()
    const send = fetchTransport()
    for (let i = 0; i < 3; i++) await send(get(base, { signal: controller.signal }))()
    await send(get(`${base.replace(/:\d+$/, ':1')}/refused`, { signal: controller.signal }))()
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('does not send at all when the signal is already aborted', async () => {
    let hits = 0
    const base = await serve((_req, res) => {
      hits++
      res.end()
    })
    const r = await fetchTransport()(get(base, { signal: AbortSignal.abort() }))()
    expect(r).toEqual(E.left(expect.objectContaining({ failure: 'aborted', sent: 'no' })))
    expect(hits).toBe(0)
  })

  it('sorts undici error causes: DNS not sent, reset maybe sent, never the message', () => {
    const s = { timedOut: false, aborted: false, reading: false }
    const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause })
    expect(classifyFetchError(fetchFailed({ code: 'ENOTFOUND' }), s)).toMatchObject({
      failure: 'dns',
      sent: 'no',
    })
    expect(
      classifyFetchError(fetchFailed({ errors: [{ code: 'ECONNREFUSED' }] }), s),
    ).toMatchObject({ failure: 'refused', sent: 'no' })
    expect(
      classifyFetchError(fetchFailed({ code: 'UND_ERR_SOCKET', message: 'http://u:p@h' }), s),
    ).toEqual({ _tag: 'TransportError', failure: 'reset', sent: 'maybe', detail: 'UND_ERR_SOCKET' })
    expect(classifyFetchError(new Error('x'), { ...s, timedOut: true })).toMatchObject({
      failure: 'timeout',
    })
  })

  // What fetch refuses before opening any connection never left: the client may say so.
  it.each([
    ['a port fetch blocks ("bad port")', 'http://127.0.0.1:6000/charges', 'bad port'],
    ['a URL fetch cannot parse', 'http://[::1:x/charges', 'invalid URL'],
    ['a scheme fetch does not speak', 'ftp://127.0.0.1/charges', 'unknown scheme'],
  ])('reports %s as not sent (a real fetch)', async (_, url, detail) => {
    const r = await fetchTransport()({ ...get(url), method: 'POST', body: '{}' })()
    expect(r).toEqual(E.left({ _tag: 'TransportError', failure: 'other', sent: 'no', detail }))
  })

  it('keeps a refusal only in the cause chain, never a message of the error itself', () => {
    const s = { timedOut: false, aborted: false, reading: false }
    // A server's answer that happens to read "bad port" is no refusal of fetch.
    expect(classifyFetchError(new Error('bad port'), s)).toMatchObject({ sent: 'maybe' })
    // A refusal while reading the body cannot be one: the request was sent.
    const refused = new TypeError('fetch failed', { cause: new Error('bad port') })
    expect(classifyFetchError(refused, { ...s, reading: true })).toMatchObject({
      failure: 'body',
      sent: 'maybe',
    })
  })

  it('answers with no headers when told its caller reads none, the same status and body', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Thing': 'A' })
      res.end('{"ok":true}')
    })
    const r = await fetchTransport({ responseHeaders: false })(get(base))()
    expect(r).toStrictEqual(E.right({ status: 200, headers: {}, body: '{"ok":true}' }))
    const all = await fetchTransport({ responseHeaders: true })(get(base))()
    expect(E.isRight(all) && all.right.headers['x-thing']).toBe('A')
  })

  it('uses an injected fetch, and never rejects when it throws', async () => {
    const transport = fetchTransport({
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'EAI_AGAIN' } })),
    })
    expect(await transport(get('http://example.invalid/x'))()).toEqual(
      E.left(expect.objectContaining({ failure: 'dns', sent: 'no' })),
    )
  })
})
