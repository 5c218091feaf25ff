import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import { canTransition, isTerminal, reduce, transition } from '../../src/machines/OrderFlow.js'
import { type OrderStatus, orderStatuses } from '../../src/model/OrderStatus.js'

const status = fc.constantFrom(...orderStatuses)
const allowed: ReadonlyArray<readonly [OrderStatus, OrderStatus]> = [
  ['PENDING', 'PAID'],
  ['PENDING', 'CANCELLED'],
  ['PAID', 'FINALIZED'],
]

describe('OrderFlow, the order-status reducer', () => {
  it('moves PENDING to PAID or CANCELLED and PAID to FINALIZED', () => {
    expect(pipe('PENDING', transition('PAID'))).toEqual(E.right('PAID'))
    expect(pipe('PENDING', transition('CANCELLED'))).toEqual(E.right('CANCELLED'))
    expect(pipe('PAID', transition('FINALIZED'))).toEqual(E.right('FINALIZED'))
    expect(reduce('PENDING', 'PAID')).toEqual(E.right('PAID'))
  })

  it('refuses PENDING -> FINALIZED, PAID -> CANCELLED and anything out of a terminal state', () => {
    expect(pipe('PENDING', transition('FINALIZED'))).toEqual(
      E.left({
        _tag: 'TransitionError',
        state: 'PENDING',
        event: 'FINALIZED',
        message: 'order status PENDING cannot become FINALIZED',
      }),
    )
    expect(E.isLeft(reduce('PAID', 'CANCELLED'))).toBe(true)
    expect(reduce('CANCELLED', 'PAID')).toEqual(
      E.left({
        _tag: 'TransitionError',
        state: 'CANCELLED',
        event: 'PAID',
        message: 'order status CANCELLED is terminal: it cannot become PAID',
      }),
    )
    expect(isTerminal('CANCELLED') && isTerminal('FINALIZED')).toBe(true)
    expect(isTerminal('PENDING') || isTerminal('PAID')).toBe(false)
  })

  test.prop([status, status])('allows exactly the three transitions of the model', (from, to) => {
    const expected = allowed.some(([f, t]) => f === from && t === to)
    expect(canTransition(to)(from)).toBe(expected)
    const r = reduce(from, to)
    expect(r).toEqual(
      expected ? E.right(to) : E.left(expect.objectContaining({ state: from, event: to })),
    )
  })

  test.prop([fc.array(status, { maxLength: 20 })])(
    'any run of events reaches a state with no way back to PENDING',
    (events) => {
      let state: OrderStatus = 'PENDING'
      const visited: Array<OrderStatus> = [state]
      for (const event of events) {
        const r = reduce(state, event)
        if (E.isRight(r)) {
          state = r.right
          visited.push(state)
        }
      }
      // Statuses only move forward: each appears at most once, PENDING only first.
      expect(new Set(visited).size).toBe(visited.length)
      expect(visited.indexOf('PENDING')).toBe(0)
    },
  )
})
