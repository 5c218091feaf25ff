import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { traverseWithConcurrency } from '../../src/client/Concurrency.js'

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

describe('Concurrency', () => {
  test.prop([
    fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3 })), { maxLength: 30 }),
    fc.integer({ min: 1, max: 8 }),
  ])(
    'gives one Either per input, in input order, never more than limit in flight',
    async (inputs, limit) => {
      let inFlight = 0
      let peak = 0
      const results = await traverseWithConcurrency(limit)(inputs, ([ok, ms], i) => async () => {
        inFlight++
        peak = Math.max(peak, inFlight)
        await sleep(ms)
        inFlight--
        return ok ? E.right(i) : E.left(`failed ${i}`)
      })()
      expect(results).toEqual(inputs.map(([ok], i) => (ok ? E.right(i) : E.left(`failed ${i}`))))
      expect(peak).toBeLessThanOrEqual(limit)
    },
  )

  it('keeps the successes when other calls fail', async () => {
    const r = await traverseWithConcurrency(2)(['a', 'b', 'c'], (s) =>
      s === 'b' ? async () => E.left('boom') : async () => E.right(s.toUpperCase()),
    )()
    expect(r).toEqual([E.right('A'), E.left('boom'), E.right('C')])
  })

  it('turns a rejecting task into a Left instead of losing the others', async () => {
    const r = await traverseWithConcurrency(1)(
      [1, 2],
      (n) => () => (n === 1 ? Promise.reject(new Error('bug')) : Promise.resolve(E.right(n))),
      (reason) => (reason instanceof Error ? reason.message : 'unknown'),
    )()
    expect(r).toEqual([E.left('bug'), E.right(2)])
  })

  it('uses the limit: with limit 2 and four 30 ms calls it takes two rounds', async () => {
    const started: Array<number> = []
    const t0 = Date.now()
    await traverseWithConcurrency(2)([1, 2, 3, 4], () => async () => {
      started.push(Date.now() - t0)
      await sleep(30)
      return E.right(undefined)
    })()
    expect(started.filter((t) => t < 20)).toHaveLength(2)
  })

  it('handles no inputs and a nonsense limit', async () => {
    expect(await traverseWithConcurrency(3)([], () => async () => E.right(1))()).toEqual([])
    expect(await traverseWithConcurrency(0)([1], (n) => async () => E.right(n))()).toEqual([
      E.right(1),
    ])
  })
})
