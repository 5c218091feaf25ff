import { validate } from '@paykit/core'
import { TokenRequest } from '@paykit/core/codecs'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { invalidTokenRequest, tokenRequest } from '../../src/arbitraries/Token.js'

// Large samples; the default 5 s is short on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

const v = validate(TokenRequest)

describe('tokenRequest', () => {
  it('is accepted by the core TokenRequest', () => {
    for (const r of fc.sample(tokenRequest(), 500)) expect(v(r)._tag).toBe('Right')
  })
})

describe('invalidTokenRequest', () => {
  const records = fc.sample(invalidTokenRequest(), { numRuns: 1000, seed: 3 })

  it('labels each value with exactly the path the core codec reports', () => {
    for (const record of records) {
      const result = v(record.value)
      expect(result._tag, record.rule).toBe('Left')
      if (result._tag === 'Left') {
        expect([...new Set(result.left.map((e) => e.path))], record.rule).toEqual([record.field])
      }
    }
  })

  it('covers every rule', () => {
    expect([...new Set(records.map((r) => r.rule))].sort()).toEqual(
      [
        'body is an object',
        'clientId is required',
        'clientId is not empty',
        'clientId is a string',
        'clientSecret is required',
        'clientSecret is not empty',
        'clientSecret is a string',
      ].sort(),
    )
  })
})
