// Conformance (black box, the built CLI over HTTP): POST /charges (spec 2.5, 3.1, 6.1) and
// the sandbox's 3DS choices (docs/service.md#the-3ds-frame-page).
import { beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  cardId as createCardId,
  charge,
  frameMessageIn,
  isoFractionalZ,
  token,
  usBilling,
  useCli,
  type Answer,
} from './support.js'

const cli = useCli()
let bearer: string
beforeAll(async () => {
  bearer = await token(cli.url)
})

let seq = 0
const nextOrder = () => `charge-order-${++seq}`
const cardId = (number: string): Promise<string> => createCardId(cli.url, bearer, number)

/** Spec 2.5: every field present; the ones not non-null for the status are null. */
const expectChargeShape = (res: Answer, status: string): void => {
  expect(res.status).toBe(200)
  expect(Object.keys(res.json).sort()).toEqual(
    ['authentication', 'createdAt', 'error', 'message', 'order', 'status'].sort(),
  )
  expect(res.json.status).toBe(status)
  expect(typeof res.json.message).toBe('string')
  expect(res.json.createdAt).toMatch(isoFractionalZ)
  expect(Math.abs(Date.parse(res.json.createdAt) - Date.now())).toBeLessThan(60_000)
  if (status === 'FAILED') {
    expect(res.json.error).toEqual({ code: expect.any(String), message: expect.any(String) })
  } else expect(res.json.error).toBeNull()
  if (status === 'AUTHENTICATION_REQUIRED') {
    expect(res.json.authentication).toEqual({ url: expect.any(String), id: expect.any(String) })
  } else expect(res.json.authentication).toBeNull()
  if (status === 'SUCCEEDED') {
    expect(res.json.order).toEqual({
      id: expect.any(String),
      reference: expect.any(String),
      amount: expect.any(Number),
      currency: expect.any(String),
      authorizationCode: expect.any(String),
    })
  } else expect(res.json.order).toBeNull()
}

/** Opens the frame with `?result=...` as an automation would; the page. */
const frame = async (url: string, result: string): Promise<Answer> => {
  const u = new URL(url)
  u.searchParams.set('result', result)
  const res = await fetch(u)
  return { status: res.status, headers: res.headers, text: await res.text(), json: undefined }
}

describe('charge response (spec 2.5)', () => {
  it('SUCCEEDED: order with id, reference = merchant order.id, amount, currency, code', async () => {
    const order = nextOrder()
    const res = await charge(cli.url, bearer, await cardId('4242424242424242'), order, {
      amount: 1234.56,
    })
    expectChargeShape(res, 'SUCCEEDED')
    expect(res.json.order.reference).toBe(order)
    expect(res.json.order.amount).toBe(1234.56)
    expect(res.json.order.currency).toBe('USD')
    expect(res.json.order.authorizationCode.length).toBeGreaterThan(0)
    expect(res.json.order.id).not.toBe(order)
  })

  it('FAILED FRAUD_PREVENT and CARD_DECLINED have the FAILED shape', async () => {
    const fraud = await charge(cli.url, bearer, await cardId('4000000000009995'), nextOrder())
    expectChargeShape(fraud, 'FAILED')
    expect(fraud.json.error.code).toBe('FRAUD_PREVENT')
    const declined = await charge(cli.url, bearer, await cardId('4000000000000002'), nextOrder())
    expectChargeShape(declined, 'FAILED')
    expect(declined.json.error.code).toBe('CARD_DECLINED')
  })

  it('AUTHENTICATION_REQUIRED: url on the sandbox own origin, and an id', async () => {
    const res = await charge(cli.url, bearer, await cardId('4000000000003220'), nextOrder())
    expectChargeShape(res, 'AUTHENTICATION_REQUIRED')
    expect(new URL(res.json.authentication.url).origin).toBe(new URL(cli.url).origin)
  })

  it('a second charge of a SUCCEEDED order is FAILED DUPLICATE_ORDER', async () => {
    const card = await cardId('4242424242424242')
    const order = nextOrder()
    expectChargeShape(await charge(cli.url, bearer, card, order), 'SUCCEEDED')
    const again = await charge(cli.url, bearer, card, order)
    expectChargeShape(again, 'FAILED')
    expect(again.json.error.code).toBe('DUPLICATE_ORDER')
    // With another card too: it is the order that was paid.
    const other = await charge(cli.url, bearer, await cardId('5555555555554444'), order, {
      billingInfo: usBilling,
    })
    expect(other.json.error?.code).toBe('DUPLICATE_ORDER')
  })

  it('a FAILED order may be charged again (no DUPLICATE_ORDER)', async () => {
    const order = nextOrder()
    const failed = await charge(cli.url, bearer, await cardId('4000000000000002'), order)
    expect(failed.json.status).toBe('FAILED')
    const ok = await charge(cli.url, bearer, await cardId('4242424242424242'), order)
    expect(ok.json.status).toBe('SUCCEEDED')
  })

  it('a charge body missing order.id is a 400 naming it', async () => {
    const res = await call(cli.url, 'POST', '/charges', {
      bearer,
      body: {
        order: { amount: 5, description: 'd', name: 'n' },
        cardId: 'pm_x',
        authenticationId: null,
      },
    })
    expect(res.status).toBe(400)
    expect(Object.keys(res.json.errors as object).some((k) => k.startsWith('order'))).toBe(true)
  })
})

describe('3DS (spec 3.1, 6.1; DESIGN)', () => {
  const start = async (number = '4000000000003220', amount = 42.5, billing?: unknown) => {
    const card = await cardId(number)
    const order = nextOrder()
    const opts = { amount, ...(billing === undefined ? {} : { billingInfo: billing }) }
    const first = await charge(cli.url, bearer, card, order, opts)
    expectChargeShape(first, 'AUTHENTICATION_REQUIRED')
    return {
      card,
      order,
      opts,
      url: first.json.authentication.url as string,
      id: first.json.authentication.id as string,
    }
  }
  /** The charge of `start`'s order and card sent again with its authentication id. */
  const repeat = (a: Awaited<ReturnType<typeof start>>) =>
    charge(cli.url, bearer, a.card, a.order, { ...a.opts, authenticationId: a.id })

  it('?result=success: HTML posting the 6.1 message; the repeated charge SUCCEEDS', async () => {
    const a = await start()
    const page = await frame(a.url, 'success')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(page.text).toContain('postMessage')
    expect(frameMessageIn(page.text)).toEqual({
      MessageType: 'authentication.complete',
      Status: 'SUCCESS',
      AuthenticationId: a.id,
      OrderId: a.order,
      OrderAmount: 42.5,
    })
    const repeated = await repeat(a)
    expectChargeShape(repeated, 'SUCCEEDED')
    expect(repeated.json.order.reference).toBe(a.order)
  })

  it('the plain frame page (no result) offers Complete and Fail and stays PENDING', async () => {
    const a = await start()
    const res = await fetch(a.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    const html = await res.text()
    expect(html).toMatch(/Complete/i)
    expect(html).toMatch(/Fail/i)
    const repeated = await repeat(a)
    expect(repeated.json.status).toBe('FAILED')
    expect(repeated.json.error.code).toBe('AUTHENTICATION_FAILED')
  })

  it.each([
    ['failed', 'FAILED'],
    ['error', 'ERROR'],
    ['expired', 'EXPIRED'],
  ])(
    '?result=%s posts authentication.failed %s; the repeat is AUTHENTICATION_FAILED',
    async (result, status) => {
      const a = await start()
      const page = await frame(a.url, result)
      expect(page.status).toBe(200)
      expect(frameMessageIn(page.text)).toEqual({
        MessageType: 'authentication.failed',
        Status: status,
        AuthenticationId: a.id,
        OrderId: a.order,
        OrderAmount: 42.5,
      })
      const repeated = await repeat(a)
      expectChargeShape(repeated, 'FAILED')
      expect(repeated.json.error.code).toBe('AUTHENTICATION_FAILED')
    },
  )

  it('an unknown authentication id -> FAILED AUTHENTICATION_FAILED', async () => {
    const a = await start()
    const res = await charge(cli.url, bearer, a.card, a.order, {
      ...a.opts,
      authenticationId: 'auth_does_not_exist',
    })
    expectChargeShape(res, 'FAILED')
    expect(res.json.error.code).toBe('AUTHENTICATION_FAILED')
  })

  it("another order's successful authentication -> FAILED AUTHENTICATION_FAILED", async () => {
    const a = await start()
    await frame(a.url, 'success')
    const res = await charge(cli.url, bearer, a.card, nextOrder(), {
      ...a.opts,
      authenticationId: a.id,
    })
    expectChargeShape(res, 'FAILED')
    expect(res.json.error.code).toBe('AUTHENTICATION_FAILED')
    // ... and it still works for its own order.
    const own = await repeat(a)
    expect(own.json.status).toBe('SUCCEEDED')
  })

  it("another card's successful authentication -> FAILED AUTHENTICATION_FAILED", async () => {
    const a = await start()
    await frame(a.url, 'success')
    const otherCard = await cardId('4000000000003220')
    const res = await charge(cli.url, bearer, otherCard, a.order, {
      ...a.opts,
      authenticationId: a.id,
    })
    expectChargeShape(res, 'FAILED')
    expect(res.json.error.code).toBe('AUTHENTICATION_FAILED')
  })

  it('a result is recorded once: success then failed keeps SUCCESS', async () => {
    const a = await start()
    await frame(a.url, 'success')
    const later = await frame(a.url, 'failed')
    // Whatever the answer code, the page must not report the later result as recorded.
    expect(frameMessageIn(later.text).Status).toBe('SUCCESS')
    const repeated = await repeat(a)
    expect(repeated.json.status).toBe('SUCCEEDED')
  })

  it('a result is recorded once: failed then success keeps FAILED', async () => {
    const a = await start()
    await frame(a.url, 'failed')
    const later = await frame(a.url, 'success')
    expect(frameMessageIn(later.text).Status).toBe('FAILED')
    const repeated = await repeat(a)
    expect(repeated.json.error?.code).toBe('AUTHENTICATION_FAILED')
  })

  it('after a 3DS success, a third charge of the order is DUPLICATE_ORDER', async () => {
    const a = await start()
    await frame(a.url, 'success')
    const ok = await repeat(a)
    expect(ok.json.status).toBe('SUCCEEDED')
    const again = await repeat(a)
    expect(again.json.error?.code).toBe('DUPLICATE_ORDER')
  })

  it('4000008400000027 (USA): 400 billingInfo without it; 3DS then SUCCEEDED with it', async () => {
    const card = await cardId('4000008400000027')
    const missing = await charge(cli.url, bearer, card, nextOrder())
    expect(missing.status).toBe(400)
    expect(Object.keys(missing.json.errors as object)).toContain('billingInfo')
    const a = await start('4000008400000027', 10, usBilling)
    expect(frameMessageIn((await frame(a.url, 'success')).text).Status).toBe('SUCCESS')
    const repeated = await repeat(a)
    expect(repeated.json.status).toBe('SUCCEEDED')
  })

  it('an unknown result value is refused (4xx) and records nothing', async () => {
    const a = await start()
    const page = await frame(a.url, 'maybe')
    expect(page.status).toBeGreaterThanOrEqual(400)
    expect(page.status).toBeLessThan(500)
    const ok = await frame(a.url, 'success')
    expect(frameMessageIn(ok.text).Status).toBe('SUCCESS')
  })
})
