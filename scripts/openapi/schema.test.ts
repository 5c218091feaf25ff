// The codec walk on its own: limits read from the codecs, defaults and required members,
// references to components, and a codec it cannot read stops the generator.
import { Metadata, PaymentLinkRequest, Product } from '@paykit/core'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { schemaOf } from './schema.js'

describe('schemaOf', () => {
  it('reads the limits, defaults and required members from the codec', () => {
    const schema = schemaOf(Product, new Map()) as {
      properties: Record<string, Record<string, unknown>>
      required: ReadonlyArray<string>
    }
    expect(schema.properties['imageUrl']).toEqual({ type: 'string', maxLength: 512 })
    expect(schema.properties['price']).toEqual({ type: 'number', minimum: 0 })
    expect(schema.properties['requiresShipping']).toEqual({ type: 'boolean', default: false })
    expect(schema.required).toEqual(['name', 'price']) // requiresShipping has a default
  })

  it('refers to the codecs written as components, and says "at least one" with anyOf', () => {
    const schema = schemaOf(PaymentLinkRequest, new Map([[Metadata, 'Metadata']])) as {
      properties: Record<string, Record<string, unknown>>
      anyOf: ReadonlyArray<object>
    }
    expect(schema.properties['metadata']).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Metadata' },
    })
    expect(schema.anyOf).toEqual([{ required: ['amount'] }, { required: ['lineItems'] }])
  })

  it('stops at a codec it cannot read (no io-ts tag, no base, no hint)', () => {
    const custom = { name: 'Custom', decode: () => E.right(1) }
    expect(() => schemaOf(custom, new Map())).toThrow(/no schema for the codec Custom/)
  })
})
