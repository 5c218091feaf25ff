import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import * as t from 'io-ts'
import { validate } from '../../src/model/FieldError.js'
import * as Money from '../../src/model/Money.js'

// Prices up to 10^9 with 2 decimals, as integer cents (the independent oracle).
const cents = fc.bigInt({ min: 0n, max: 100_000_000_000n })
const quantity = fc.integer({ min: 1, max: 1_000_000 })
const centsToNumber = (c: bigint): number => Number(c) / 100

describe('Money', () => {
  it('holds the decimal a JSON number denotes', () => {
    const sum = pipe(
      Money.MoneyFromNumber.decode(0.1),
      E.chain((a) => E.map(Money.add(a))(Money.MoneyFromNumber.decode(0.2))),
    )
    expect(E.isRight(sum) && Money.toString(sum.right)).toBe('0.3')
  })

  it('refuses NaN, infinities and non-numbers', () => {
    for (const u of [Number.NaN, Number.POSITIVE_INFINITY, '1.5', null, undefined, 10n]) {
      expect(E.isLeft(Money.MoneyFromNumber.decode(u))).toBe(true)
    }
  })

  it('says a missing amount is required, as every other required field does', () => {
    const messages = (u: unknown) =>
      pipe(
        validate(t.type({ order: t.type({ amount: Money.MoneyFromNumber }) }))(u),
        E.match(
          (errors) => errors.map((e) => `${e.path}: ${e.message}`),
          () => [],
        ),
      )
    expect(messages({ order: {} })).toEqual(['order.amount: is required'])
    // the one wording of a type error, as for any other field
    expect(messages({ order: { amount: '5' } })).toEqual([
      'order.amount: must be a number, got a string',
    ])
    expect(messages({ order: { amount: Number.NaN } })).toEqual([
      'order.amount: must be a finite number',
    ])
  })

  test.prop([cents, quantity])(
    'subtotal = price x quantity, exactly (cents oracle)',
    (price, qty) => {
      const subtotal = pipe(Money.fromCents(price), Money.multiply(qty))
      expect(Money.toCents(subtotal)).toBe(price * BigInt(qty))
    },
  )

  test.prop([fc.array(fc.tuple(cents, quantity), { maxLength: 50 })])(
    'total = sum of subtotals, exactly (cents oracle), via JSON numbers',
    (lines) => {
      const total = Money.sum(
        lines.map(([price, qty]) =>
          pipe(
            Money.MoneyFromNumber.decode(centsToNumber(price)),
            E.map(Money.multiply(qty)),
            E.getOrElse(() => Money.zero),
          ),
        ),
      )
      const oracle = lines.reduce((acc, [price, qty]) => acc + price * BigInt(qty), 0n)
      expect(Money.toCents(total)).toBe(oracle)
    },
  )

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })])(
    'decode . encode . decode = decode',
    (n) => {
      const once = Money.MoneyFromNumber.decode(n)
      const twice = pipe(
        once,
        E.map(Money.MoneyFromNumber.encode),
        E.chain(Money.MoneyFromNumber.decode),
      )
      expect(E.isRight(once) && E.isRight(twice) && Money.Eq.equals(once.right, twice.right)).toBe(
        true,
      )
    },
  )

  it('orders and compares by value', () => {
    const a = Money.fromCents(150)
    const b = E.getOrElse(() => Money.zero)(Money.fromString('1.5'))
    expect(Money.Eq.equals(a, b)).toBe(true)
    expect(Money.Ord.compare(a, Money.fromCents(151))).toBe(-1)
    expect(Money.isPositive(Money.zero)).toBe(false)
    expect(E.isLeft(Money.fromString('1,5'))).toBe(true)
  })
})
