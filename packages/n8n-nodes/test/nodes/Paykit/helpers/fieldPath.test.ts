import { fc, test } from '@fast-check/vitest'
import type { IDataObject } from 'n8n-workflow'
import { describe, expect, it } from 'vitest'
import {
  looksLikeCardNumber,
  removeAt,
  valueAt,
} from '../../../../nodes/Paykit/v1/helpers/fieldPath.js'

const item = (): IDataObject => ({
  card: { number: '4111111111111111', cvv: '123' },
  body: { 'card holder': { name: 'Ada' } },
  list: [{ a: 1 }],
  amount: 10,
})

describe('valueAt', () => {
  it('reads a dotted path, segments trimmed, keys with spaces as n8n form fields have', () => {
    expect(valueAt(item(), 'card.number')).toBe('4111111111111111')
    expect(valueAt(item(), ' card . cvv ')).toBe('123')
    expect(valueAt(item(), 'body.card holder.name')).toBe('Ada')
    expect(valueAt(item(), 'amount')).toBe(10)
  })

  it('is undefined for a missing segment, a path through a value or an array, and never throws', () => {
    expect(valueAt(item(), 'card.expiry')).toBeUndefined()
    expect(valueAt(item(), 'amount.value')).toBeUndefined()
    expect(valueAt(item(), 'list.0.a')).toBeUndefined()
    expect(valueAt(item(), 'card.number.length')).toBeUndefined()
    expect(valueAt(item(), 'toString')).toBeUndefined()
  })

  test.prop([fc.jsonValue(), fc.string()])('never throws on any item and path', (json, path) => {
    expect(() => valueAt({ json } as IDataObject, path)).not.toThrow()
  })
})

describe('removeAt', () => {
  it('deletes the value in place, so the item n8n keeps no longer holds it', () => {
    const json = item()
    const card = json.card
    expect(removeAt(json, 'card.number')).toBe(true)
    expect(card).toEqual({ cvv: '123' })
    expect(valueAt(json, 'card.number')).toBeUndefined()
  })

  it('is false and changes nothing when there is no value at the path', () => {
    const json = item()
    expect(removeAt(json, 'card.expiry')).toBe(false)
    expect(removeAt(json, 'amount.value')).toBe(false)
    expect(removeAt(json, '')).toBe(false)
    expect(removeAt(json, 'toString')).toBe(false)
    expect(json).toEqual(item())
  })

  const short = fc.string({ maxLength: 2 })
  test.prop([
    fc.dictionary(short, fc.oneof(fc.jsonValue(), fc.dictionary(short, fc.jsonValue()))),
    fc.array(short, { minLength: 1, maxLength: 2 }).map((s) => s.join('.')),
  ])('removes exactly when there is a value at the path, and leaves none there', (json, path) => {
    fc.pre(path.split('.').some((s) => s.trim() !== ''))
    const copy = structuredClone(json) as IDataObject
    expect(removeAt(copy, path)).toBe(valueAt(json as IDataObject, path) !== undefined)
    expect(valueAt(copy, path)).toBeUndefined()
  })
})

describe('looksLikeCardNumber', () => {
  it('tells a card number typed in as a field name from a field path', () => {
    expect(looksLikeCardNumber('4111111111111111')).toBe(true)
    expect(looksLikeCardNumber('4111 1111 1111 1111')).toBe(true)
    expect(looksLikeCardNumber('card.number')).toBe(false)
    expect(looksLikeCardNumber('order 12345')).toBe(false)
  })
})
