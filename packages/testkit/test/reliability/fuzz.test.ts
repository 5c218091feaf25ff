// Issue 10, fuzz: 100,000 arbitrary values per request codec. `validate` never throws and
// every failure names a field of the codec's shape (spec section 2), or the root when the
// input is not an object.
import * as fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { validate, type FieldError } from '@paykit/core'
import {
  ChargeRequest,
  PaymentLinkRequest,
  PaymentMethodRequest,
  TokenRequest,
} from '@paykit/core/codecs'
import { FrameMessage } from '@paykit/core/machines'
import { beforeAll, describe, expect, it } from 'vitest'
import { fieldPaths, generalPath, isJsonObject } from './support.js'

const RUNS_PER_CODEC = 100_000

// ------------------------------------------------------------------ shaped inputs

/** A codec's shape as a tree: an object's fields, an array's items, or a leaf. */
interface Shape {
  readonly fields: Map<string, Shape>
  item: Shape | undefined
}

const shapeOf = (paths: ReadonlyArray<string>): Shape => {
  const root: Shape = { fields: new Map(), item: undefined }
  for (const path of paths) {
    let node = root
    for (const segment of path.split('.')) {
      const name = segment.replace(/\[\]$/, '')
      let child = node.fields.get(name)
      if (child === undefined) {
        child = { fields: new Map(), item: undefined }
        node.fields.set(name, child)
      }
      node = child
      if (segment.endsWith('[]')) {
        child.item ??= { fields: new Map(), item: undefined }
        node = child.item
      }
    }
  }
  return root
}

/** Values that sit on or near the rules' edges, of every JSON type (and a few that are not). */
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    '',
    ' ',
    'x',
    'x'.repeat(256),
    'x'.repeat(2049),
    '4242424242424242',
    '4242 4242 4242 4242',
    '4000000000003220',
    '4242424242424241',
    '12',
    '13',
    '00',
    String(new Date().getUTCFullYear() + 2),
    '2001',
    '123',
    '12345',
    'USA',
    'us',
    'CA',
    '94105',
    'SUCCESS',
    'PENDING',
    'authentication.complete',
    'authentication.failed',
    'https://shop.example.com/ok',
    'ftp://shop.example.com',
    'TSHIRT-BLUE-M',
    'pm_000001',
    null,
    true,
    false,
    0,
    -0,
    0.1,
    1,
    -1,
    1.5,
    1440,
    1e21,
    1e308,
    Number.MAX_SAFE_INTEGER,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    [],
    {},
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
)

const shaped = (shape: Shape): fc.Arbitrary<unknown> => {
  if (shape.item !== undefined)
    return fc.array(
      fc.oneof({ arbitrary: shaped(shape.item), weight: 4 }, { arbitrary: leaf, weight: 1 }),
      { maxLength: 4 },
    )
  if (shape.fields.size === 0) return leaf
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, child] of shape.fields)
    model[name] = fc.oneof({ arbitrary: shaped(child), weight: 4 }, { arbitrary: leaf, weight: 1 })
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }))
}

/**
 * JSON values, anything-like values, and objects shaped like one of the request codecs:
 * one sample that every codec validates (generation costs more than validation).
 */
const inputs: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: fc.anything({ maxDepth: 2 }), weight: 1 },
  {
    arbitrary: fc.oneof(...Object.values(fieldPaths).map((paths) => shaped(shapeOf(paths)))),
    weight: 4,
  },
)

// ------------------------------------------------------------------ the judgement

/** Why `result` is not an acceptable answer for `input`, or undefined when it is. */
const fault = (
  allowed: ReadonlySet<string>,
  input: unknown,
  result: unknown,
): string | undefined => {
  if (
    !E.isLeft(result as E.Either<unknown, unknown>) &&
    !E.isRight(result as E.Either<unknown, unknown>)
  )
    return 'not an Either'
  if (E.isRight(result as E.Either<unknown, unknown>)) return undefined
  const errors = (result as E.Left<ReadonlyArray<FieldError>>).left
  if (!Array.isArray(errors) || errors.length === 0) return 'a Left without field errors'
  for (const error of errors as ReadonlyArray<FieldError>) {
    if (typeof error.path !== 'string' || typeof error.message !== 'string' || error.message === '')
      return `a malformed field error ${JSON.stringify(error)}`
    if (isJsonObject(input)) {
      if (!allowed.has(generalPath(error.path)))
        return `path ${JSON.stringify(error.path)} is not a field of the codec`
    } else if (error.path !== '')
      return `path ${JSON.stringify(error.path)} for a non-object input (expected the root)`
  }
  return undefined
}

const codecs = [
  ['PaymentLinkRequest', validate(PaymentLinkRequest), fieldPaths.PaymentLinkRequest],
  ['PaymentMethodRequest', validate(PaymentMethodRequest), fieldPaths.PaymentMethodRequest],
  ['ChargeRequest', validate(ChargeRequest), fieldPaths.ChargeRequest],
  ['TokenRequest', validate(TokenRequest), fieldPaths.TokenRequest],
  ['FrameMessage', validate(FrameMessage), fieldPaths.FrameMessage],
] as const

const seed = Date.now() ^ (Math.random() * 0x100000000)
let sample: ReadonlyArray<unknown> = []

describe('fuzz: validate on 100,000 arbitrary inputs per request codec', () => {
  beforeAll(() => {
    sample = fc.sample(inputs, { numRuns: RUNS_PER_CODEC, seed })
  }, 120_000)

  it.each(codecs)(
    '%s: never throws; every failure names a field of the shape (the root for a non-object)',
    (name, check, paths) => {
      expect(sample).toHaveLength(RUNS_PER_CODEC)
      const allowed = new Set<string>(paths)
      const failures: Array<{ readonly input: unknown; readonly why: string }> = []
      const named = new Set<string>()
      for (const input of sample) {
        let why: string | undefined
        try {
          const result = check(input as never)
          why = fault(allowed, input, result)
          if (E.isLeft(result)) for (const e of result.left) named.add(generalPath(e.path))
        } catch (e) {
          why = `threw ${String(e)}`
        }
        if (why !== undefined) failures.push({ input, why })
      }
      // The smallest failing input, as fast-check would print it.
      const shown = failures
        .map((f) => ({ ...f, text: fc.stringify(f.input) }))
        .sort((a, b) => a.text.length - b.text.length)
        .slice(0, 3)
        .map((f) => `${f.text}: ${f.why}`)
      expect(
        failures.length,
        `${name}: ${failures.length} of ${RUNS_PER_CODEC} inputs (seed ${seed}) failed, e.g. ${shown.join(' | ')}`,
      ).toBe(0)
      // The inputs reached every field: each one was named by some failure.
      expect(paths.filter((p) => !named.has(p))).toEqual([])
    },
    // The bound: 100,000 validations within this (the duration shows in the report).
    60_000,
  )
})
