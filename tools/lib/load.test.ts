import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { measure } from '@paykit/tools/lib/load'

// A server that answers 200 on /ok and 404 elsewhere, counting what it served.
let server: Server
let url = ''
let served = 0
beforeAll(async () => {
  server = createServer((req, res) => {
    served++
    res.statusCode = req.url === '/ok' ? 200 : 404
    res.end(req.method === 'POST' ? 'posted' : 'ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('measure', () => {
  it('sends the requests asked for to url + path and counts them', async () => {
    served = 0
    const m = await measure({ url, path: '/ok', connections: 2, amount: 50 })
    expect(m.total).toBe(50)
    expect(served).toBe(50)
    expect(m).toMatchObject({ non2xx: 0, errors: 0 })
    expect(m.rps).toBeGreaterThan(0)
    expect(m.p99).toBeGreaterThanOrEqual(m.p50)
  })

  it('counts the answers that are not 2xx', async () => {
    const m = await measure({ url, path: '/missing', method: 'POST', connections: 1, amount: 10 })
    expect(m.non2xx).toBe(10)
  })
})
