// The codec walk on its own: limits read from the codecs, defaults and required members,
// references to components, and a codec it cannot read stops the generator.
import { Metadata, PaymentLinkRequest, Product, ValidationProblem } from '@paykit/core/codecs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { schemaOf } from '@paykit/tools/openapi/schema'

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
      anyOf: ReadonlyArray<{
        type: string
        properties: Record<string, Record<string, unknown>>
        required?: ReadonlyArray<string>
      }>
    }
    expect(Object.keys(schema)).toEqual(['anyOf'])
    // One whole record per key of the rule, that key required (a generator types each).
    expect(schema.anyOf.map((b) => [b.type, b.required])).toEqual([
      ['object', ['amount']],
      ['object', ['lineItems']],
    ])
    for (const branch of schema.anyOf) {
      expect(branch.properties['metadata']).toEqual({
        type: 'array',
        items: { $ref: '#/components/schemas/Metadata' },
      })
      expect(Object.keys(branch.properties)).toContain('orderDescription')
    }
  })

  it('writes a whole number literal as an integer, and null as the default of an optional member that takes it', () => {
    const problem = schemaOf(ValidationProblem, new Map()) as {
      properties: Record<string, Record<string, unknown>>
    }
    expect(problem.properties['status']).toEqual({ type: 'integer', enum: [400] })
    const link = schemaOf(PaymentLinkRequest, new Map()) as {
      anyOf: ReadonlyArray<{ properties: Record<string, Record<string, unknown>> }>
    }
    expect(link.anyOf[0]?.properties['orderDescription']).toMatchObject({ default: null })
    expect(link.anyOf[0]?.properties['orderReference']).not.toHaveProperty('default')
  })

  it('stops at a codec it cannot read (no io-ts tag, no base, no hint)', () => {
    const custom = { name: 'Custom', decode: () => E.right(1) }
    expect(() => schemaOf(custom, new Map())).toThrow(/no schema for the codec Custom/)
  })
})
