import * as core from '@paykit/core/pure'
import { describe, expect, it } from 'vitest'
import * as arbitraries from '../src/arbitraries/index.js'
import * as buyer from '../src/buyer/index.js'
import * as kit from '../src/index.js'
import * as memory from '../src/memory/index.js'
import * as nock from '../src/nock/index.js'
import * as properties from '../src/properties/index.js'
import * as sandbox from '../src/sandbox/index.js'
import * as service from '../src/service/index.js'
import * as simulator from '../src/simulator/index.js'

// The entries by concept (issue 38): each holds its own concept's names, the root only what
// all of them share.
const entries = { kit, simulator, service, nock, sandbox, memory, buyer, arbitraries, properties }

describe('the package entries', () => {
  it('export no value under a name the core uses for something else', () => {
    const shared = Object.entries(entries).flatMap(([entry, module]) =>
      Object.keys(module)
        .filter((name) => name in core)
        .map((name) => {
          expect(module[name as keyof typeof module], name).toBe(core[name as keyof typeof core])
          return `${entry}.${name}`
        }),
    )
    expect(shared.sort()).toEqual([
      'service.REDACTED',
      'service.redactBody',
      'service.redactHeaders',
    ])
  })

  it('export each name from one entry', () => {
    const seen = new Map<string, string>()
    for (const [entry, module] of Object.entries(entries))
      for (const name of Object.keys(module)) {
        expect(seen.get(name), `${entry}.${name}`).toBeUndefined()
        seen.set(name, entry)
      }
  })

  it('keep the root small: the Node.js floor, the test cards and the credentials', () => {
    expect(Object.keys(kit).sort()).toEqual([
      'MIN_NODE_MAJOR',
      'assertSupportedNode',
      'defaultCredentials',
      'defaultProducts',
      'defaultStore',
      'isSupportedNodeVersion',
      'testCardOf',
      'testCardTable',
      'testCards',
      'unsupportedNodeMessage',
    ])
  })

  it('export the arbitraries under names of their own', () => {
    expect(typeof arbitraries.chargeRequestForPaymentMethod).toBe('function')
    expect(typeof arbitraries.jsonLineItemsTotal).toBe('function')
    expect(typeof arbitraries.pathOfKeys).toBe('function')
    expect('chargeRequestFor' in arbitraries).toBe(false)
    expect('lineItemsTotal' in arbitraries).toBe(false)
    expect('pathOf' in arbitraries).toBe(false)
  })

  it('export each concept from its entry', () => {
    const expected: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [kit, 'assertSupportedNode'],
      [kit, 'testCards'],
      [kit, 'defaultProducts'],
      [simulator, 'initialState'],
      [simulator, 'advanceClock'],
      [simulator, 'orderDetailsOf'],
      [simulator, 'frameMessageOf'],
      [nock, 'mockPaymentService'],
      [sandbox, 'startSandbox'],
      [memory, 'memoryPaymentService'],
      [service, 'makeLiveService'],
      [arbitraries, 'paymentLinkRequest'],
      [arbitraries, 'invalidPaymentLinkRequest'],
      [properties, 'paymentLinkValidationProperties'],
      [properties, 'refusesBeforeSending'],
      [buyer, 'authenticateHeadless'],
    ]
    for (const [module, name] of expected) expect(module[name], name).toBeDefined()
    expect(typeof service.Faults.status500).toBe('object')
    expect(typeof simulator.Simulator.handle).toBe('function')
  })

  it('export the generic names only through their namespace', () => {
    const generic = ['handle', 'expire', 'amount', 'text', 'blank', 'removed', 'card', 'cvv', 'own']
    for (const [entry, module] of Object.entries(entries))
      for (const name of generic) expect(name in module, `${entry}.${name}`).toBe(false)
    for (const name of ['handle', 'expire'] as const)
      expect(simulator.Simulator[name], name).toBeDefined()
    for (const name of ['amount', 'text', 'blank', 'removed', 'card', 'cvv'] as const)
      expect(arbitraries.Arbitraries[name], name).toBeDefined()
  })
})
