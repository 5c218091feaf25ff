import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { empty, insert, lookup, remove, sizeOf } from '../../src/simulator/HashTrie.js'

describe('HashTrie', () => {
  it('behaves as a Map under any inserts and removes, and older versions keep their entries', () => {
    const op = fc.oneof(
      fc.record({ put: fc.string({ maxLength: 4 }), value: fc.integer() }),
      fc.record({ del: fc.string({ maxLength: 4 }) }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        let record = empty<number>()
        const model = new Map<string, number>()
        const versions: Array<[typeof record, Map<string, number>]> = []
        for (const o of ops) {
          if ('put' in o) {
            record = insert(record, o.put, o.value)
            model.set(o.put, o.value)
          } else {
            record = remove(record, o.del)
            model.delete(o.del)
          }
          versions.push([record, new Map(model)])
        }
        for (const [r, m] of versions) {
          expect(sizeOf(r)).toBe(m.size)
          expect(Object.fromEntries(Object.entries(r))).toEqual(Object.fromEntries(m))
          for (const [k, v] of m) expect(lookup(r, k)).toBe(v)
        }
      }),
    )
  })

  it('reads as a plain read-only record: index, keys, JSON, spread; prototype keys are not entries', () => {
    const r = insert(insert(empty<number>(), 'a', 1), '__proto__', 2)
    expect(r['a']).toBe(1)
    expect(Object.keys(r).sort()).toEqual(['__proto__', 'a'])
    expect(JSON.parse(JSON.stringify(insert(empty<number>(), 'x', 3)))).toEqual({ x: 3 })
    expect({ ...insert(empty<number>(), 'y', 4) }).toEqual({ y: 4 })
    expect(empty<number>()).toEqual({})
    expect(lookup(empty<number>(), 'constructor')).toBeUndefined()
    expect(lookup(empty<number>(), 'toString')).toBeUndefined()
    expect(() => {
      ;(r as Record<string, number>)['a'] = 5
    }).toThrow(TypeError)
    expect(r['a']).toBe(1)
  })

  it('holds 100,000 entries and finds each', () => {
    let r = empty<number>()
    for (let i = 0; i < 100_000; i++) r = insert(r, `OC${i}`, i)
    expect(sizeOf(r)).toBe(100_000)
    for (let i = 0; i < 100_000; i += 997) expect(lookup(r, `OC${i}`)).toBe(i)
  })
})
