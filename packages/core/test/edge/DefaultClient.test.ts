import * as E from 'fp-ts/lib/Either.js'
import type { AddressInfo } from 'node:net'
import * as http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import type { Exchange } from '../../src/client/Client.js'
import { createClient } from '../../src/edge/DefaultClient.js'
import { amountOnlyOrder } from '../fixtures.js'

const servers: Array<http.Server> = []

/** A service on 127.0.0.1 that answers every request with an order and a header of its own. */
const serveOrder = async (): Promise<string> => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1' })
    res.end(JSON.stringify(amountOnlyOrder()))
  })
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

describe('createClient', () => {
  it('decodes over its own fetch transport, with or without an onExchange hook', async () => {
    const baseUrl = await serveOrder()
    const plain = await createClient({ baseUrl, credentials: { apiKey: 'k' } }).getOrder('OC1')()
    const exchanges: Array<Exchange> = []
    const logged = await createClient({
      baseUrl,
      credentials: { apiKey: 'k' },
      onExchange: (x) => exchanges.push(x),
    }).getOrder('OC1')()
    expect(E.isRight(plain) && plain.right.orderCode).toBe('OC00001001')
    expect(logged).toStrictEqual(plain)
    // The hook sees the response's headers (its transport copies them; without a hook,
    // nothing reads them and the transport skips the copy).
    expect(exchanges[0]?.response?.headers['x-request-id']).toBe('r-1')
  })
})
