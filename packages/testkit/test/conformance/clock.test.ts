// Conformance (black box, the built CLI over HTTP): the sandbox clock (token, authentication
// and link expiry: docs/service.md#expiry-and-the-sandbox-clock) and the control endpoints
// being opt-in.
import { describe, expect, it } from 'vitest'
import {
  advanceClock,
  call,
  cardBody,
  charge,
  createCard,
  createLink,
  credentials,
  expectFieldError,
  expectProblem,
  frameMessageIn,
  payByForm,
  startCli,
  token,
  useCli,
} from './support.js'

const cli = useCli(['--control'])
const plain = useCli()

const advance = (seconds: number): Promise<void> => advanceClock(cli.url, seconds)
const status = async (code: string): Promise<string> => {
  const res = await call(cli.url, 'GET', `/paymentlink/order/${code}`, {
    bearer: credentials.apiKey,
  })
  expect(res.status).toBe(200)
  return res.json.orderStatus as string
}

describe('control endpoints are off unless --control', () => {
  it.each([
    ['POST', '/__sandbox/clock', { advanceSeconds: 10 }],
    ['POST', '/__sandbox/reset', {}],
    ['GET', '/__sandbox/events', undefined],
  ] as const)('%s %s without --control -> 404 problem details', async (method, path, body) => {
    const res = await call(plain.url, method, path, body === undefined ? {} : { body })
    expectProblem(res, 404)
  })

  it('without --control the clock does not move (a token stays valid)', async () => {
    const t = await token(plain.url)
    await call(plain.url, 'POST', '/__sandbox/clock', { body: { advanceSeconds: 7200 } })
    expect((await createCard(plain.url, t, '4242424242424242')).status).toBe(200)
  })
})

describe('tokens live 3600 s of the sandbox clock', () => {
  it('valid at 3599 s, 401 problem details past 3600 s, on every endpoint', async () => {
    const t = await token(cli.url)
    await advance(3599)
    expect((await createCard(cli.url, t, '4242424242424242')).status).toBe(200)
    await advance(2)
    expectProblem(await createCard(cli.url, t, '4242424242424242'), 401)
    const card = await createCard(cli.url, await token(cli.url), '4242424242424242')
    expectProblem(await charge(cli.url, t, card.json.id, 'clock-o1'), 401)
    expectProblem(
      await call(cli.url, 'POST', '/paymentlink/checkout', { bearer: t, body: { amount: 1 } }),
      401,
    )
    // A new token works; the API key does not expire.
    expect((await createCard(cli.url, await token(cli.url), '4242424242424242')).status).toBe(200)
    expect(
      (
        await call(cli.url, 'POST', '/paymentlink/checkout', {
          bearer: credentials.apiKey,
          body: { amount: 1 },
        })
      ).status,
    ).toBe(200)
  })
})

describe('lifetimes count from the sandbox time of creation', () => {
  it('a token, a link and an authentication made after an advance live their full lifetime', async () => {
    await advance(5 * 3600)
    const t = await token(cli.url)
    const code = await createLink(cli.url, { amount: 1, expirationMinutes: 30 })
    const card = await createCard(cli.url, t, '4000000000003220')
    const first = await charge(cli.url, t, card.json.id, 'clock-after-advance')
    expect(first.json.status).toBe('AUTHENTICATION_REQUIRED')
    await advance(9 * 60)
    expect((await createCard(cli.url, t, '4242424242424242')).status).toBe(200)
    expect(await status(code)).toBe('PENDING')
    const u = new URL(first.json.authentication.url as string)
    u.searchParams.set('result', 'success')
    expect(frameMessageIn(await (await fetch(u)).text()).Status).toBe('SUCCESS')
  })
})

describe('authentications expire after 10 minutes', () => {
  it('a PENDING authentication 10+ minutes old cannot succeed; the repeat is AUTHENTICATION_FAILED', async () => {
    const t = await token(cli.url)
    const card = await createCard(cli.url, t, '4000000000003220')
    const first = await charge(cli.url, t, card.json.id, 'clock-3ds-1')
    expect(first.json.status).toBe('AUTHENTICATION_REQUIRED')
    await advance(601)
    const u = new URL(first.json.authentication.url as string)
    u.searchParams.set('result', 'success')
    const page = await fetch(u)
    const html = await page.text()
    // The page must not report a success for an expired authentication.
    if (
      page.headers.get('content-type')?.includes('html') === true &&
      html.includes('MessageType')
    ) {
      expect(frameMessageIn(html).Status).toBe('EXPIRED')
    }
    const t2 = await token(cli.url)
    const repeated = await charge(cli.url, t2, card.json.id, 'clock-3ds-1', {
      authenticationId: first.json.authentication.id,
    })
    expect(repeated.json.status).toBe('FAILED')
    expect(repeated.json.error.code).toBe('AUTHENTICATION_FAILED')
  })

  it('one completed within 10 minutes still succeeds', async () => {
    const t = await token(cli.url)
    const card = await createCard(cli.url, t, '4000000000003220')
    const first = await charge(cli.url, t, card.json.id, 'clock-3ds-2')
    await advance(540)
    const u = new URL(first.json.authentication.url as string)
    u.searchParams.set('result', 'success')
    expect(frameMessageIn(await (await fetch(u)).text()).Status).toBe('SUCCESS')
    const repeated = await charge(cli.url, t, card.json.id, 'clock-3ds-2', {
      authenticationId: first.json.authentication.id,
    })
    expect(repeated.json.status).toBe('SUCCEEDED')
  })
})

describe('payment links expire after expirationMinutes', () => {
  it('PENDING before, CANCELLED after; the default is 1440 minutes', async () => {
    const short = await createLink(cli.url, { amount: 5, expirationMinutes: 5 })
    const byDefault = await createLink(cli.url, { amount: 5 })
    await advance(299)
    expect(await status(short)).toBe('PENDING')
    await advance(2)
    expect(await status(short)).toBe('CANCELLED')
    expect(await status(byDefault)).toBe('PENDING')
    await advance(1440 * 60 - 301 - 1)
    expect(await status(byDefault)).toBe('PENDING')
    await advance(2)
    expect(await status(byDefault)).toBe('CANCELLED')
  })

  it('an expired link cannot be paid', async () => {
    const code = await createLink(cli.url, { amount: 5, expirationMinutes: 1 })
    await advance(61)
    const res = await payByForm(`${cli.url}/pay/${code}`, 5)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(await status(code)).toBe('CANCELLED')
  })

  it('a paid link does not expire', async () => {
    const code = await createLink(cli.url, { amount: 5, expirationMinutes: 1 })
    const paid = await call(cli.url, 'POST', `/__sandbox/orders/${code}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    await advance(120)
    expect(await status(code)).toBe('PAID')
  })
})

describe('the control clock cannot break the sandbox', () => {
  it('an absurd advance is 400 naming advanceSeconds; the sandbox goes on serving', async () => {
    const own = await startCli(['--control'])
    try {
      for (const advanceSeconds of [1e300, 1e13]) {
        const res = await call(own.url, 'POST', '/__sandbox/clock', { body: { advanceSeconds } })
        expect(res.status).toBe(400)
        expect(Object.keys(res.json.errors as object)).toContain('advanceSeconds')
      }
      // Ten years ahead is fine, and every date written is still valid.
      const ok = await call(own.url, 'POST', '/__sandbox/clock', {
        body: { advanceSeconds: 10 * 365 * 24 * 3600 },
      })
      expect(ok.status).toBe(200)
      const t = await token(own.url)
      // A card that expires in 3 years of wall time is expired on the sandbox clock now.
      expectFieldError(await createCard(own.url, t, '4242424242424242'), /^card\.expiration/)
      const body = cardBody('4242424242424242')
      const card = await call(own.url, 'POST', '/paymentmethods', {
        bearer: t,
        body: { ...body, card: { ...body.card, expirationYear: '2099' } },
      })
      expect(card.status).toBe(200)
      const charged = await charge(own.url, t, card.json.id, 'far-future')
      expect(charged.json.status).toBe('SUCCEEDED')
      expect(new Date(charged.json.createdAt as string).getUTCFullYear()).toBeGreaterThan(
        new Date().getUTCFullYear() + 8,
      )
      const link = await createLink(own.url, { amount: 1 })
      const order = await call(own.url, 'GET', `/paymentlink/order/${link}`, {
        bearer: credentials.apiKey,
      })
      expect(order.status).toBe(200)
    } finally {
      await own.stop()
    }
  })
})
