// Issue 18, part 4: the root's generic names (amount, text, blank, removed, card, cvv,
// handle, expire, own) are grouped in the namespaces Arbitraries and Simulator, and still
// work as aliases that the type information marks deprecated.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { deprecation } from '../../../../scripts/deprecation.js'
import * as testkit from '../../src/index.js'

const ARBITRARIES = ['amount', 'text', 'blank', 'removed', 'card', 'cvv'] as const
const SIMULATOR = ['handle', 'expire'] as const
const index = fileURLToPath(new URL('../../src/index.ts', import.meta.url))

describe('generic names of @paykit/testkit (issue 18)', () => {
  it('are grouped in Arbitraries and Simulator, the same values', () => {
    for (const name of ARBITRARIES) expect(testkit[name], name).toBe(testkit.Arbitraries[name])
    for (const name of SIMULATOR) expect(testkit[name], name).toBe(testkit.Simulator[name])
    expect(testkit.own({ a: 1 }, 'a')).toBe(1)
    expect(testkit.own({ a: 1 }, 'constructor')).toBeUndefined()
  })

  it('are deprecated at the root, and the namespaces are not', () => {
    const generic = [...ARBITRARIES, ...SIMULATOR, 'own']
    expect(deprecation(index, generic)).toEqual(Object.fromEntries(generic.map((n) => [n, true])))
    expect(deprecation(index, ['Arbitraries', 'Simulator', 'paymentLinkRequest'])).toEqual({
      Arbitraries: false,
      Simulator: false,
      paymentLinkRequest: false,
    })
  })
})
