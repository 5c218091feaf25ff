import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/model/FieldError.js'
import { OrderStatus } from '../../src/model/OrderStatus.js'

describe('OrderStatus codec', () => {
  it('decodes the four statuses of the spec', () => {
    for (const s of ['PENDING', 'PAID', 'CANCELLED', 'FINALIZED'])
      expect(validate(OrderStatus)(s)).toEqual(E.right(s))
  })

  it('refuses any other value at the root', () => {
    for (const s of ['pending', 'REFUNDED', '', 1, null]) {
      const r = validate(OrderStatus)(s)
      expect(E.isLeft(r) && r.left.map((e) => e.path)).toEqual([''])
    }
  })
})
