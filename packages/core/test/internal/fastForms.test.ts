// The fast forms of the model's records are generated from their codecs
// (scripts/fastForms.ts): the file checked in is what the generator writes from today's
// sources (a member added to a record and the file not regenerated fails here), and the
// generator refuses a record it cannot read as a form.
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { fastFormsSource, formatted, GENERATED, introspectionOf } from '../../scripts/fastForms.js'
import { atLeastOneOf, unrolled } from '../../src/internal/codec.js'
import { fastDecoderOf } from '../../src/internal/fastDecode.js'
import { failed, isUnrolled } from '../../src/internal/fastDecoder.js'
import { formOf, oneOfFormOf } from '../../src/internal/fastForm.js'

const look = introspectionOf({ isUnrolled, failed, fastDecoderOf, formOf, oneOfFormOf })

const MODEL = resolve(import.meta.dirname, '../../src/model')

/** Every module of the model, as the generator reads the build's. */
const modelModules = (): Promise<ReadonlyArray<Readonly<Record<string, unknown>>>> =>
  Promise.all(
    readdirSync(MODEL)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => import(resolve(MODEL, f)) as Promise<Readonly<Record<string, unknown>>>),
  )

describe('the generated fast forms', () => {
  it('are what the generator writes from the model now (run `node packages/core/scripts/fastForms.ts --write` after a build)', async () => {
    const text = await formatted(fastFormsSource(await modelModules(), look))
    expect(text).toBe(readFileSync(GENERATED, 'utf8'))
  })

  it('follow a member added to a record: its read, its bit and its store', async () => {
    const Request = unrolled(
      t.intersection(
        [
          t.exact(t.type({ orderName: t.string })),
          t.exact(t.partial({ amount: t.number, note: t.string })),
          atLeastOneOf(['amount'], { code: 'atLeastOne', fields: ['amount'] }, 'Rule'),
        ],
        'Request',
      ),
    )
    const text = await formatted(fastFormsSource([{ Request }], look))
    expect(text).toContain(`if ((seen & 4) !== 0) {`)
    expect(text).toContain(`a['note'] = v`)
    expect(text).toContain(`u['amount'] !== undefined) return a`)
  })

  it('refuse a record marked unrolled that no form reads', () => {
    const Odd = unrolled(t.union([t.type({ a: t.string }), t.type({ b: t.string })], 'Odd'))
    expect(() => fastFormsSource([{ Odd }], look)).toThrow(/Odd: marked unrolled/)
    const Clash = unrolled(t.exact(t.type({ constructor: t.string }), 'Clash'))
    expect(() => fastFormsSource([{ Clash }], look)).toThrow(/no name a form reads/)
  })
})
