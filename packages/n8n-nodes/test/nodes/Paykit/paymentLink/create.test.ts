/**
 * Payment Link → Create through the real n8n engine against the sandbox over real HTTP:
 * the request from the fields or the item, amounts given as text, the line-item form, and
 * its errors and messages. One Link per Order Reference: oneLinkPerReference*.test.ts.
 */
import type { INode, INodeProperties } from 'n8n-workflow'
import { NodeHelpers } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { Faults } from '@paykit/testkit/service'
import {
  countingProxy,
  dist,
  paykitNode,
  run,
  singleNodeWorkflow,
  useSandbox,
} from '../../../support.js'
import { checkoutRequests as checkoutRequestsOf, create, expectNodeWords } from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const checkoutRequests = () => checkoutRequestsOf(sandbox)

describe('Payment Link -> Create', () => {
  it('creates a link from the fields (line items: a catalogue SKU and a one-time product)', async () => {
    const result = await run(
      sandbox,
      create({
        orderBy: 'lineItems',
        lineItems: {
          item: [
            { kind: 'sku', sku: 'MUG-LOGO', quantity: 3 },
            { kind: 'product', name: 'Poster', price: 18.9, quantity: 2 },
          ],
        },
        additionalFields: {
          orderReference: 'ref-fields',
          successUrl: 'https://shop.example.com/ok',
          metadata: { entry: [{ name: 'channel', value: 'n8n' }] },
        },
      }),
    )
    expect(result.error).toBeUndefined()
    const [item] = result.nodes['Create Link']?.[0] ?? []
    expect(item?.json).toEqual({
      orderCode: expect.stringMatching(/^OC/),
      orderId: expect.any(Number),
      paymentLinkUrl: expect.stringContaining('/pay/'),
    })
    expect(item?.pairedItem).toEqual({ item: 0 })
    const order = sandbox.state().orders[String(item?.json.orderCode)]
    expect(order?.orderReference).toBe('ref-fields')
    expect(order?.metadata).toEqual([{ name: 'channel', value: 'n8n' }])
    const [mugs, posters] = order?.lineItems ?? []
    expect(posters?.subTotal.toString()).toBe('37.8')
    expect(order?.total.toString()).toBe(mugs?.subTotal.plus('37.8').toString())
  })

  it('takes the whole request from each input item, fields named as in the spec, in input order', async () => {
    const orders = Array.from({ length: 20 }, (_, i) => ({
      orderReference: `ref-${i}`,
      amount: 10 + i / 100,
      ignoredField: 'stripped',
    }))
    const result = await run(
      sandbox,
      create({ orderSource: 'item', options: { concurrency: 4 } }),
      orders,
    )
    expect(result.error).toBeUndefined()
    const out = result.nodes['Create Link']?.[0] ?? []
    expect(out).toHaveLength(20)
    out.forEach((item, i) => {
      expect(item.pairedItem).toEqual({ item: i })
      const details = sandbox.state().orders[String(item.json.orderCode)]
      expect(details?.orderReference).toBe(`ref-${i}`)
      expect(details?.total.toNumber()).toBe(10 + i / 100)
    })
  })

  it('sends text outside ASCII as it is (UTF-8 on the wire)', async () => {
    const text = 'Café Ünïcødé 😀 注文'
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      { amount: 5, orderReference: text, metadata: [{ name: 'note', value: `«${text}»` }] },
    ])
    expect(result.error).toBeUndefined()
    const code = String(result.nodes['Create Link']?.[0]?.[0]?.json.orderCode)
    expect(sandbox.state().orders[code]).toMatchObject({
      orderReference: text,
      metadata: [{ name: 'note', value: `«${text}»` }],
    })
  })

  it('reads the request from a nested field of the item when told', async () => {
    const result = await run(
      sandbox,
      create({ orderSource: 'item', requestField: 'order.request' }),
      [{ order: { request: { amount: 5, orderReference: 'nested' } } }],
    )
    expect(result.error).toBeUndefined()
    const code = String(result.nodes['Create Link']?.[0]?.[0]?.json.orderCode)
    expect(sandbox.state().orders[code]?.orderReference).toBe('nested')
  })

  it('refuses an invalid item before any request, naming the field', async () => {
    const before = checkoutRequests().length
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      { amount: 5 },
      { lineItems: [{ sku: 'MUG-LOGO', quantity: 0 }] },
    ])
    expect(result.error?.name).toBe('NodeOperationError')
    expect(result.error?.message).toContain('lineItems[0].quantity')
    expect(checkoutRequests().length).toBe(before)
  })

  it('with Continue On Fail, an invalid item becomes an error item and the others go on', async () => {
    const result = await run(sandbox, create({ orderSource: 'item' }, { continueOnFail: true }), [
      { amount: 5 },
      { amount: -1 },
      { orderReference: 'x'.repeat(256), amount: 1 },
      { amount: 7 },
    ])
    expect(result.error).toBeUndefined()
    const out = result.nodes['Create Link']?.[0] ?? []
    expect(out.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })))
    expect(out[0]?.json.orderCode).toMatch(/^OC/)
    expect(out[1]?.json).toMatchObject({
      error: expect.stringContaining('amount'),
      details: {
        errorType: 'ValidationError',
        fieldErrors: [{ path: 'amount', message: expect.any(String) }],
      },
    })
    expect(String(out[2]?.json.error)).toContain('orderReference')
    expect(out[3]?.json.orderCode).toMatch(/^OC/)
  })

  it('a service fault becomes an error item carrying the HTTP status', async () => {
    sandbox.injectFault(Faults.status500, {
      method: 'POST',
      path: '/paymentlink/checkout',
      times: 1,
    })
    try {
      const result = await run(sandbox, create({ orderSource: 'item' }, { continueOnFail: true }), [
        { amount: 3 },
        { amount: 4 },
      ])
      const out = result.nodes['Create Link']?.[0] ?? []
      expect(out[0]?.json).toMatchObject({ details: { errorType: 'HttpError', httpCode: '500' } })
      expect(out[1]?.json.orderCode).toMatch(/^OC/)
    } finally {
      sandbox.clearFaults()
    }
  })

  it('a 400 from the service is a NodeApiError with the problem details field messages', async () => {
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      { lineItems: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] },
    ])
    expect(result.error?.name).toBe('NodeApiError')
    expect(result.error?.message).toContain('HTTP 400')
    expect(JSON.stringify(result.error)).toContain('lineItems[0].sku')
  })

  it('runs at most the chosen number of requests at once, and fetches one token for all items', async () => {
    const proxy = await countingProxy(sandbox.url)
    sandbox.setLatency(30, { method: 'POST', path: '/paymentlink/checkout' })
    try {
      const result = await run(
        proxy,
        create({ orderSource: 'item', options: { concurrency: 3 } }),
        Array.from({ length: 12 }, (_, i) => ({ amount: i + 1 })),
      )
      expect(result.error).toBeUndefined()
      expect(result.nodes['Create Link']?.[0]).toHaveLength(12)
      expect(proxy.stats().maxInFlight).toBe(3)
      // The first link goes alone (it brings the token); the next ones go side by side at once.
      const links = proxy.seen().filter((r) => r.path === '/paymentlink/checkout')
      expect(links[0]?.inFlight).toBe(1)
      expect(links[3]?.inFlight).toBe(3)
      expect(result.preAuthenticationRuns).toBe(1)
      expect(proxy.stats().requests).toBe(13) // one POST /token, twelve links
    } finally {
      sandbox.clearFaults()
      await proxy.close()
    }
  })
})

// -------------------------------------------------------------------------------------
// amounts as forms and webhooks give them (text)
// -------------------------------------------------------------------------------------

/** The order a created item points at, as the sandbox holds it (exact decimals). */
const orderOf = (json: Readonly<Record<string, unknown>> | undefined) =>
  sandbox.state().orders[String(json?.orderCode)]

/** The JSON body of the last payment-link creation on the wire. */
const lastCheckoutBody = (): Readonly<Record<string, unknown>> =>
  JSON.parse(checkoutRequests().at(-1)?.body ?? '{}') as Readonly<Record<string, unknown>>

describe('Payment Link -> Create: amounts given as text', () => {
  it('Define Below: an expression giving "25.50" creates the link, total 25.50 exactly', async () => {
    const result = await run(sandbox, create({ orderBy: 'amount', amount: '={{ $json.total }}' }), [
      { total: '25.50' },
    ])
    expect(result.error).toBeUndefined()
    const json = result.nodes['Create Link']?.[0]?.[0]?.json
    expect(orderOf(json)?.total.toFixed(2)).toBe('25.50')
    expect(lastCheckoutBody().amount).toBe(25.5)
    // and read back through the node: a JSON number
    const read = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Get', {
          resource: 'paymentLink',
          operation: 'getOrder',
          orderCode: String(json?.orderCode),
        }),
      ),
    )
    expect(read.nodes['Get']?.[0]?.[0]?.json).toMatchObject({ total: 25.5, subtotal: 25.5 })
  })

  it('Define Below: a one-time product price from an expression giving text is read exactly', async () => {
    const result = await run(
      sandbox,
      create({
        orderBy: 'lineItems',
        lineItems: {
          item: [{ kind: 'product', name: 'Poster', price: '={{ $json.price }}', quantity: 3 }],
        },
      }),
      [{ price: ' 18.90 ' }],
    )
    expect(result.error).toBeUndefined()
    const order = orderOf(result.nodes['Create Link']?.[0]?.[0]?.json)
    expect(order?.lineItems[0]?.price.toFixed(2)).toBe('18.90')
    expect(order?.total.toFixed(2)).toBe('56.70')
  })

  it('From Input Item: amounts and prices as text (a form, a webhook) create links with exact totals', async () => {
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      { amount: '25.50', orderReference: 'text-amount' },
      { amount: ' 1234567.89 ' },
      { amount: 42 },
      {
        lineItems: [
          { product: { name: 'Poster', price: '18.90' }, quantity: 2 },
          { product: { name: 'Pin', price: '.35' }, quantity: 3 },
        ],
      },
    ])
    expect(result.error).toBeUndefined()
    const totals = (result.nodes['Create Link']?.[0] ?? []).map((item) =>
      orderOf(item.json)?.total.toFixed(2),
    )
    expect(totals).toEqual(['25.50', '1234567.89', '42.00', '38.85'])
  })

  it('From Input Item: quantities and the expiry as whole-number text (a form gives text) create the link', async () => {
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      {
        expirationMinutes: '60',
        lineItems: [{ product: { name: 'Poster', price: '18.90' }, quantity: '2' }],
      },
    ])
    expect(result.error).toBeUndefined()
    const item = result.nodes['Create Link']?.[0]?.[0]?.json
    expect(orderOf(item ?? {})?.total.toFixed(2)).toBe('37.80')
    expect(orderOf(item ?? {})?.lineItems[0]?.quantity).toBe(2)
  })

  it('From Input Item: a text with more digits than a JSON number holds is refused, not rounded', async () => {
    const before = checkoutRequests().length
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      { amount: '1234567890.123456789' },
    ])
    expect(result.error?.name).toBe('NodeOperationError')
    expect(result.error?.message).toContain(
      'amount: has more digits than a JSON number holds exactly (19 significant digits',
    )
    expect(checkoutRequests().length).toBe(before)
  })

  it('"12abc" fails naming the field, in Define Below and From Input Item, and nothing is sent', async () => {
    const before = checkoutRequests().length
    const fields = await run(sandbox, create({ orderBy: 'amount', amount: '={{ "12abc" }}' }))
    expect(fields.error?.name).toBe('NodeOperationError')
    expect(fields.error?.message).toBe(
      'Invalid payment link request, nothing was sent. Fix: amount: must be a number, like 25.50 (got a text that is not a number)',
    )
    const nested = await run(
      sandbox,
      create({ orderSource: 'item', requestField: 'order' }, { continueOnFail: true }),
      [
        { order: { amount: '12abc' } },
        { order: { lineItems: [{ product: { name: 'Pin', price: '1,50' }, quantity: 1 }] } },
        { order: { amount: '9.99' } },
      ],
    )
    const out = nested.nodes['Create Link']?.[0] ?? []
    expect(out[0]?.json).toEqual({
      error:
        'Invalid payment link request, nothing was sent. Fix: order.amount: must be a number, like 25.50 (got a text that is not a number)',
      details: {
        errorType: 'ValidationError',
        fieldErrors: [
          {
            path: 'order.amount',
            message: 'must be a number, like 25.50 (got a text that is not a number)',
          },
        ],
      },
    })
    expect(out[1]?.json.details).toMatchObject({
      fieldErrors: [
        {
          path: 'order.lineItems[0].product.price',
          message:
            'must be a number, like 25.50, with a dot for decimals and no thousands separator (got a text with a comma)',
        },
      ],
    })
    expect(orderOf(out[2]?.json)?.total.toFixed(2)).toBe('9.99')
    expect(checkoutRequests().length).toBe(before + 1)
  })

  it('an amount refused as text is reported with the other fields the core refuses', async () => {
    const result = await run(sandbox, create({ orderSource: 'item' }), [
      { amount: 'abc', orderReference: 'x'.repeat(256) },
    ])
    expect(result.error?.description).toBe(
      'amount: must be a number, like 25.50 (got a text that is not a number)\n' +
        'orderReference: must be at most 255 characters',
    )
  })
})

// -------------------------------------------------------------------------------------
// the line-item form
// -------------------------------------------------------------------------------------

/** The description of the node's version 1, as n8n reads it from the versioned node. */
const paykitV1 = () => {
  const v1 = new dist.node.Paykit().nodeVersions[1]
  if (v1 === undefined) throw new Error('the Paykit node has no version 1')
  return v1.description
}

const lineItemValues = (): ReadonlyArray<INodeProperties> => {
  const lineItems = paykitV1().properties.find((p) => p.name === 'lineItems')
  const options = (lineItems?.options ?? []) as ReadonlyArray<{
    name: string
    values?: ReadonlyArray<INodeProperties>
  }>
  return options.find((o) => o.name === 'item')?.values ?? []
}

describe('Payment Link -> Create: the line-item form shows the fields of the chosen type', () => {
  it('a Catalogue SKU shows SKU and Quantity; a One-Time Product its name, price, image, shipping and Quantity', () => {
    // As the editor asks it, for the line item at parameters.lineItems.item[0].
    const description = paykitV1()
    const shownFor = (kind: string) =>
      lineItemValues()
        .filter((p) =>
          NodeHelpers.displayParameterPath(
            { parameters: { orderBy: 'lineItems', lineItems: { item: [{ kind }] } } },
            p,
            'parameters.lineItems.item[0]',
            { typeVersion: 1 },
            description,
          ),
        )
        .map((p) => p.displayName)
    expect(shownFor('sku')).toEqual(['Product Type', 'Quantity', 'SKU'])
    expect(shownFor('product')).toEqual([
      'Image URL',
      'Price',
      'Product Name',
      'Product Type',
      'Quantity',
      'Requires Shipping',
    ])
    const byName = new Map(lineItemValues().map((p) => [p.name, p]))
    expect(byName.get('sku')?.displayOptions).toEqual({ show: { kind: ['sku'] } })
    for (const name of ['name', 'price', 'imageUrl', 'requiresShipping'])
      expect(byName.get(name)?.displayOptions).toEqual({ show: { kind: ['product'] } })
    for (const name of ['kind', 'quantity'])
      expect(byName.get(name)?.displayOptions).toBeUndefined()
  })

  it("n8n's own reading of the parameters keeps only the chosen type's fields", () => {
    const description = paykitV1()
    const parameters = {
      resource: 'paymentLink',
      operation: 'create',
      orderBy: 'lineItems',
      lineItems: {
        item: [
          { kind: 'sku', sku: 'MUG-LOGO', quantity: 2, name: 'left over', price: 3 },
          { kind: 'product', sku: 'left over', name: 'Poster', price: 18.9, quantity: 1 },
        ],
      },
    }
    const node: INode = {
      id: '1',
      name: 'Create Link',
      type: 'n8n-nodes-paykit.paykit',
      typeVersion: 1,
      position: [0, 0],
      parameters,
    }
    const read = NodeHelpers.getNodeParameters(
      description.properties,
      parameters,
      true,
      false,
      node,
      description,
    )
    expect((read?.lineItems as { item: unknown }).item).toEqual([
      { kind: 'sku', sku: 'MUG-LOGO', quantity: 2 },
      {
        kind: 'product',
        name: 'Poster',
        price: 18.9,
        imageUrl: '',
        requiresShipping: false,
        quantity: 1,
      },
    ])
  })

  it('each type runs: a SKU sends sku and quantity only, a one-time product its product', async () => {
    const result = await run(
      sandbox,
      create({
        orderBy: 'lineItems',
        lineItems: {
          item: [
            { kind: 'sku', sku: 'MUG-LOGO', quantity: 2, name: 'left over', price: 3 },
            {
              kind: 'product',
              sku: 'left over',
              name: 'Poster',
              price: 18.9,
              imageUrl: 'https://shop.example.com/poster.png',
              requiresShipping: true,
              quantity: 1,
            },
          ],
        },
      }),
    )
    expect(result.error).toBeUndefined()
    expect(lastCheckoutBody().lineItems).toEqual([
      { sku: 'MUG-LOGO', quantity: 2 },
      {
        product: {
          name: 'Poster',
          price: 18.9,
          imageUrl: 'https://shop.example.com/poster.png',
          requiresShipping: true,
        },
        quantity: 1,
      },
    ])
    const order = orderOf(result.nodes['Create Link']?.[0]?.[0]?.json)
    expect(order?.lineItems.map((l) => [l.sku, l.name, l.quantity])).toEqual([
      ['MUG-LOGO', expect.any(String), 2],
      [null, 'Poster', 1],
    ])
  })
})

// -------------------------------------------------------------------------------------
// messages
// -------------------------------------------------------------------------------------

describe('Payment Link -> Create: messages', () => {
  it('a link created but answered with a body that is not JSON: the link may exist, its order code is unknown', async () => {
    const orders = () => Object.keys(sandbox.state().orders).length
    const before = orders()
    sandbox.injectFault(Faults.malformedBody, {
      method: 'POST',
      path: '/paymentlink/checkout',
      times: 1,
    })
    try {
      const result = await run(sandbox, create({ orderSource: 'item' }), [{ amount: 5 }])
      expect(orders()).toBe(before + 1) // the service did create it
      expect(result.error?.name).toBe('NodeApiError')
      expect(result.error?.message).toBe(
        'POST /paymentlink/checkout answered HTTP 200 with a body that is not valid JSON. The link may have been created, and its order code is unknown.',
      )
      expect(result.error?.description).toMatch(/^Its order code never arrived, so nobody/)
      expect(result.error?.description).not.toMatch(/try again/i)
      expectNodeWords(result.error)
    } finally {
      sandbox.clearFaults()
    }
  })

  it('with Continue On Fail, that item says outcomeUnknown and the other items go on', async () => {
    sandbox.injectFault(Faults.malformedBody, {
      method: 'POST',
      path: '/paymentlink/checkout',
      times: 1,
    })
    try {
      const result = await run(
        sandbox,
        create({ orderSource: 'item', options: { concurrency: 1 } }, { continueOnFail: true }),
        [{ amount: 5 }, { amount: 6 }],
      )
      const [unread, created] = result.nodes['Create Link']?.[0] ?? []
      expect(unread?.json).toEqual({
        error:
          'POST /paymentlink/checkout answered HTTP 200 with a body that is not valid JSON. The link may have been created, and its order code is unknown.',
        details: {
          errorType: 'DecodeError',
          fieldErrors: [{ path: '', message: 'is not valid JSON' }],
          httpCode: '200',
          outcomeUnknown: true,
        },
      })
      expect(created?.json.orderCode).toMatch(/^OC/)
    } finally {
      sandbox.clearFaults()
    }
  })

  it('a 500 joins the problem title with one full stop', async () => {
    sandbox.injectFault(Faults.status500, { method: 'POST', path: '/paymentlink/checkout' })
    try {
      const result = await run(sandbox, create({ orderSource: 'item' }, { continueOnFail: true }), [
        { amount: 3 },
      ])
      const json = result.nodes['Create Link']?.[0]?.[0]?.json
      expect(json?.error).toBe(
        'POST /paymentlink/checkout failed with HTTP 500: An error occurred while processing your request. The link may have been created, and its order code is unknown.',
      )
      expect(json?.details).toMatchObject({ errorType: 'HttpError', httpCode: '500' })
      expectNodeWords({ message: json?.error })
    } finally {
      sandbox.clearFaults()
    }
  })
})
