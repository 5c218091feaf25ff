// Issue 18, part 4: the root's generic names (timeout, unauthorized, last4, subtotal) have
// grouped names, and still work as aliases that the type information marks deprecated
// (what makes an editor strike them through and rank them last among auto-imports).
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as core from '../src/index.js'
import * as pure from '../src/pure.js'
import { deprecation } from '../../../scripts/deprecation.js'

const GENERIC = ['timeout', 'unauthorized', 'last4', 'subtotal'] as const

const src = fileURLToPath(new URL('../src/', import.meta.url))

describe('generic names of @paykit/core (issue 18)', () => {
  it('have grouped names, the same functions', () => {
    for (const entry of [core, pure]) {
      expect(entry.timeout).toBe(entry.timeoutError)
      expect(entry.unauthorized).toBe(entry.unauthorizedError)
      expect(entry.last4).toBe(entry.cardLast4)
      expect(entry.Money.toString(entry.subtotal(3)(entry.Money.fromCents(1999)))).toBe(
        entry.Money.toString(entry.Money.multiply(3)(entry.Money.fromCents(1999))),
      )
    }
    expect(core.timeoutError('GET /x', 5).message).toMatch(/GET \/x did not finish within 5 ms/)
  })

  it('are deprecated at both entries, and the grouped names are not', () => {
    const grouped = ['timeoutError', 'unauthorizedError', 'cardLast4', 'Money']
    for (const file of ['index.ts', 'pure.ts']) {
      expect(deprecation(join(src, file), GENERIC)).toEqual(
        Object.fromEntries(GENERIC.map((n) => [n, true])),
      )
      expect(deprecation(join(src, file), grouped)).toEqual(
        Object.fromEntries(grouped.map((n) => [n, false])),
      )
    }
  }, 60_000) // a TypeScript program per entry: 6 s on a busy machine
})

const ORDER_STATUS = [
  'canTransitionOrderStatus',
  'isTerminalOrderStatus',
  'reduceOrderStatus',
  'transitionOrderStatus',
] as const

describe('the order-status machine as the namespace OrderFlow (issue 22)', () => {
  it('keeps its earlier names, the same functions', () => {
    for (const entry of [core, pure]) {
      expect(entry.canTransitionOrderStatus).toBe(entry.OrderFlow.canTransition)
      expect(entry.isTerminalOrderStatus).toBe(entry.OrderFlow.isTerminal)
      expect(entry.reduceOrderStatus).toBe(entry.OrderFlow.reduce)
      expect(entry.transitionOrderStatus).toBe(entry.OrderFlow.transition)
    }
  })

  it('marks the earlier names deprecated at both entries, and not OrderFlow', () => {
    for (const file of ['index.ts', 'pure.ts']) {
      expect(deprecation(join(src, file), ORDER_STATUS)).toEqual(
        Object.fromEntries(ORDER_STATUS.map((n) => [n, true])),
      )
      expect(deprecation(join(src, file), ['OrderFlow', 'OrderStatus'])).toEqual({
        OrderFlow: false,
        OrderStatus: false,
      })
    }
  }, 60_000) // a TypeScript program per entry
})
