import { FrameMessage } from '@paykit/core/machines'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { escapeHtml, scriptJson } from '../../src/simulator/Pages.js'
import { completeAuthentication, eventsOf } from '../../src/simulator/Simulator.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import { at, baseUrl, bearer, request, session, t0 } from './support.js'

const form = (method: string, path: string, fields: Record<string, string>) => ({
  method,
  path,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

/** The frame message embedded in a 3DS page, as the browser would post it. */
const postedMessage = (page: string): unknown => {
  const m = /var message = (.*);/.exec(page)
  return m?.[1] === undefined ? undefined : JSON.parse(m[1])
}

const authentication = () => {
  const s = session()
  const tok = s.token()
  const cardId = s.paymentMethod(tok, testCards.authentication.number)
  const body = s
    .send(
      request(
        'POST',
        '/charges',
        { order: { id: 'merchant-7', amount: 42.5 }, cardId },
        bearer(tok),
      ),
    )
    .json()
  const id = body.authentication.id as string
  return { s, id, path: new URL(body.authentication.url).pathname }
}

describe('escaping', () => {
  it('escapes HTML and keeps script JSON from closing its element', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    )
    const json = scriptJson({ a: '</script><b>&\u2028' })
    expect(json).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(json)).toEqual({ a: '</script><b>&\u2028' })
  })
})

describe('3DS frame page', () => {
  it('GET shows Complete and Fail buttons posting to the frame URL, as text/html', () => {
    const { s, id, path } = authentication()
    const r = s.send(request('GET', path))
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(r.body).toContain('id="complete"')
    expect(r.body).toContain('id="fail"')
    expect(r.body).toContain(`action="${baseUrl}/3ds/${id}"`)
    expect(postedMessage(r.body)).toBeUndefined()
  })

  it('?result=success records it and posts authentication.complete to window.parent', () => {
    const { s, id, path } = authentication()
    const r = s.send(request('GET', `${path}?result=success`))
    expect(r.status).toBe(200)
    expect(r.body).toContain("window.parent.postMessage(message, '*')")
    const message = postedMessage(r.body)
    expect(message).toEqual({
      MessageType: 'authentication.complete',
      Status: 'SUCCESS',
      AuthenticationId: id,
      OrderId: 'merchant-7',
      OrderAmount: 42.5,
    })
    expect(E.isRight(FrameMessage.decode(message))).toBe(true)
    expect(s.state.authentications[id]?.status).toBe('SUCCESS')
  })

  it.each([
    ['failed', 'FAILED'],
    ['error', 'ERROR'],
    ['expired', 'EXPIRED'],
  ])('?result=%s posts authentication.failed with Status %s', (result, status) => {
    const { s, path } = authentication()
    const message = postedMessage(s.send(request('GET', `${path}?result=${result}`)).body)
    expect(message).toMatchObject({ MessageType: 'authentication.failed', Status: status })
  })

  it('the Fail button (form POST) records FAILED and answers the page that posts it', () => {
    const { s, id, path } = authentication()
    const r = s.send(form('POST', path, { result: 'failed' }))
    expect(r.status).toBe(200)
    expect(postedMessage(r.body)).toMatchObject({ Status: 'FAILED', AuthenticationId: id })
  })

  it('a JSON POST records the result and answers the frame message', () => {
    const { s, path } = authentication()
    const r = s.send(request('POST', path, { result: 'success' }))
    expect(r.json()).toMatchObject({ MessageType: 'authentication.complete', Status: 'SUCCESS' })
    expect(s.send(request('POST', path, { result: 'nope' })).json().errors).toHaveProperty('result')
  })

  it('a result is recorded once: another one is 409 and the page keeps the first', () => {
    const { s, id, path } = authentication()
    s.send(request('GET', `${path}?result=failed`))
    const again = s.send(request('GET', `${path}?result=success`))
    expect(again.status).toBe(409)
    expect(postedMessage(again.body)).toMatchObject({ Status: 'FAILED' })
    expect(s.send(request('POST', path, { result: 'success' })).status).toBe(409)
    expect(s.send(request('GET', `${path}?result=failed`)).status).toBe(200)
    expect(s.state.authentications[id]?.status).toBe('FAILED')
  })

  it('after 10 minutes the frame shows EXPIRED and posts it', () => {
    const { s, path } = authentication()
    const r = s.send(request('GET', path), at(10 * 60_000))
    expect(postedMessage(r.body)).toMatchObject({ Status: 'EXPIRED' })
    expect(completeAuthentication(s.state, 'auth_000001', 'success', t0)).toEqual(
      E.left(expect.stringContaining('EXPIRED')),
    )
  })

  it('404 page for an unknown id, 400 for an unknown result', () => {
    const { s, path } = authentication()
    expect(s.send(request('GET', '/3ds/auth_nope')).status).toBe(404)
    expect(s.send(request('GET', `${path}?result=maybe`)).status).toBe(400)
  })
})

describe('checkout page', () => {
  const link = (body: Record<string, unknown> = {}) => {
    const s = session()
    const created = s
      .send(
        request(
          'POST',
          '/paymentlink/checkout',
          {
            lineItems: [
              { sku: 'MUG-LOGO', quantity: 2 },
              { product: { name: '<b>Gift</b>', price: 3 }, quantity: 1 },
            ],
            ...body,
          },
          bearer(defaultCredentials.apiKey),
        ),
      )
      .json()
    const path = new URL(created.paymentLinkUrl).pathname
    const status = () =>
      s
        .send(
          request(
            'GET',
            `/paymentlink/order/${created.orderCode}`,
            undefined,
            bearer(defaultCredentials.apiKey),
          ),
        )
        .json()
    return { s, path, code: created.orderCode as string, status }
  }

  const card = (number: string = testCards.success.number) => ({
    number,
    expirationMonth: '12',
    expirationYear: '2030',
    cvv: '123',
  })

  it('lists the items (escaped) and the total in the store currency, with a card form', () => {
    const { s, path } = link()
    const r = s.send(request('GET', path))
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(r.body).toContain('Logo mug')
    expect(r.body).toContain('&lt;b&gt;Gift&lt;/b&gt;')
    expect(r.body).not.toContain('<b>Gift</b>')
    expect(r.body).toContain('$20.00 USD')
    for (const field of ['number', 'expirationMonth', 'expirationYear', 'cvv'])
      expect(r.body).toContain(`name="${field}"`)
    expect(r.body).toContain('value="pay"')
    expect(r.body).toContain('value="cancel"')
  })

  it('pay with a test card: PAID, payment recorded, 303 to successUrl', () => {
    const { s, path, status } = link({ successUrl: 'https://shop.example/ok?x=1' })
    const r = s.send(form('POST', path, { action: 'pay', ...card(), cardHolder: 'Ada' }))
    expect(r.status).toBe(303)
    expect(r.headers['location']).toBe('https://shop.example/ok?x=1')
    expect(status()).toMatchObject({ orderStatus: 'PAID', payment: { buyer: { name: 'Ada' } } })
    expect(eventsOf(s.state).map((e) => e.type)).toEqual(['order.paid'])
  })

  it('pay without successUrl shows a confirmation; the voucher page then exists', () => {
    const { s, path } = link()
    const r = s.send(
      form('POST', path, { action: 'pay', ...card(testCards.authentication.number) }),
    )
    expect(r.status).toBe(200)
    expect(r.body).toContain('PAID')
    expect(s.send(request('GET', `${path}/voucher`)).status).toBe(200)
  })

  it('a declined card is 402 and an invalid one 400 naming the field; the order stays PENDING', () => {
    const { s, path, status } = link()
    const declined = s.send(
      form('POST', path, { action: 'pay', ...card(testCards.declined.number) }),
    )
    expect(declined.status).toBe(402)
    expect(declined.body).toContain('The card was declined. Try another card.')
    const invalid = s.send(form('POST', path, { action: 'pay', ...card('4242424242424241') }))
    expect(invalid.status).toBe(400)
    expect(invalid.body).toContain(
      '<li data-field="card.number">The card number is not valid.</li>',
    )
    expect(invalid.body).not.toContain('4242424242424241')
    expect(status().orderStatus).toBe('PENDING')
  })

  it('cancel: CANCELLED and 303 to cancelUrl; then paying is 409', () => {
    const { s, path, status } = link({ cancelUrl: 'https://shop.example/cancel' })
    const r = s.send(form('POST', path, { action: 'cancel' }))
    expect(r.status).toBe(303)
    expect(r.headers['location']).toBe('https://shop.example/cancel')
    expect(status().orderStatus).toBe('CANCELLED')
    expect(s.send(form('POST', path, { action: 'pay', ...card() })).status).toBe(409)
  })

  it('404 page for an unknown order code; 400 for an unknown action', () => {
    const { s, path } = link()
    expect(s.send(request('GET', '/pay/OC-nope')).status).toBe(404)
    expect(s.send(form('POST', path, { action: 'refund' })).status).toBe(400)
    expect(s.send(request('GET', `${path}/voucher`)).status).toBe(404)
  })
})
