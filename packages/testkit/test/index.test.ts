import * as core from '@paykit/core'
import { describe, expect, it } from 'vitest'
import * as kit from '../src/index.js'

describe('the package root', () => {
  it('exports no value under a name the core uses for something else', () => {
    const shared = Object.keys(kit).filter((name) => name in core)
    for (const name of shared) {
      expect(kit[name as keyof typeof kit], name).toBe(core[name as keyof typeof core])
    }
    expect(shared.sort()).toEqual(['REDACTED', 'redactBody', 'redactHeaders'])
  })

  it('exports the arbitraries under names of their own', () => {
    expect(typeof kit.chargeRequestForPaymentMethod).toBe('function')
    expect(typeof kit.jsonLineItemsTotal).toBe('function')
    expect(typeof kit.pathOfKeys).toBe('function')
    expect('chargeRequestFor' in kit).toBe(false)
    expect('lineItemsTotal' in kit).toBe(false)
    expect('pathOf' in kit).toBe(false)
  })

  it('exports the Node.js floor, the simulator, the adapters and the properties', () => {
    for (const name of [
      'assertSupportedNode',
      'testCards',
      'defaultProducts',
      'initialState',
      'advanceClock',
      'orderDetailsOf',
      'frameMessageOf',
      'mockPaymentService',
      'startSandbox',
      'makeLiveService',
      'paymentLinkRequest',
      'invalidPaymentLinkRequest',
      'paymentLinkValidationProperties',
      'refusesBeforeSending',
      'authenticateHeadless',
    ]) {
      expect(kit[name as keyof typeof kit], name).toBeDefined()
    }
    expect(typeof kit.Faults.status500).toBe('object')
    expect(typeof kit.Simulator.handle).toBe('function')
  })

  it('exports the generic names only through their namespace', () => {
    const simulator = ['handle', 'expire'] as const
    const arbitraries = ['amount', 'text', 'blank', 'removed', 'card', 'cvv'] as const
    for (const name of [...simulator, ...arbitraries, 'own']) expect(name in kit, name).toBe(false)
    for (const name of simulator) expect(kit.Simulator[name], name).toBeDefined()
    for (const name of arbitraries) expect(kit.Arbitraries[name], name).toBeDefined()
  })
})
