/**
 * Plain JSON in and out of a codec. Decoded values hold amounts as `Money` (decimal.js),
 * which `JSON.stringify` writes as strings (`"25.5"`), and the same data sent back to
 * `validate` (or to a server) is then refused (`must be a number`). `encode(codec)` gives
 * the codec's JSON form (amounts as JSON numbers, dates as the spec's strings),
 * `stringify(codec)` the JSON text of it, and `parse(codec)` reads JSON text back:
 *
 * ```ts
 * pipe(chargeResponse, Json.stringify(ChargeResponse)) // '{"status":"SUCCEEDED",...,"amount":25.5,...}'
 * pipe(text, Json.parse(ChargeResponse)) // Either<ReadonlyArray<FieldError>, ChargeResponse>
 * ```
 *
 * For every request, response and event codec, `parse(codec)(stringify(codec)(a))` decodes
 * to `a` again.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { type CodedFieldError, fieldError, validate } from './FieldError.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A JSON value: what `JSON.parse` gives and `JSON.stringify` writes unchanged.
 *
 * @category model
 * @since 0.2.0
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | ReadonlyArray<JsonValue>
  | { readonly [key: string]: JsonValue }

// -------------------------------------------------------------------------------------
// encoding
// -------------------------------------------------------------------------------------

/**
 * The plain JSON form of a decoded value, the codec's output: amounts as JSON numbers,
 * everything else as the spec writes it. Pipe-first: `pipe(value, Json.encode(codec))`.
 *
 * @example
 * ```ts
 * import { Json, Money, MoneyFromNumber } from '@paykit/core/money'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const Line = t.type({ sku: t.string, price: MoneyFromNumber })
 * const line = { sku: 'MUG-LOGO', price: Money.fromCents(850) }
 * // the JSON form: the amount as a JSON number, not decimal.js's string
 * assert.deepEqual(pipe(line, Json.encode(Line)), { sku: 'MUG-LOGO', price: 8.5 })
 * ```
 *
 * @category encoding
 * @since 0.2.0
 */
export const encode =
  <A, O>(codec: t.Encoder<A, O>) =>
  (value: A): O =>
    codec.encode(value)

/**
 * The JSON text of a decoded value (`JSON.stringify` of `encode(codec)(value)`): amounts
 * as JSON numbers, ready for `validate`, a server or a file. `space` indents as
 * `JSON.stringify` does.
 *
 * @example
 * ```ts
 * import { Json, Money, MoneyFromNumber } from '@paykit/core/money'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const Line = t.type({ sku: t.string, price: MoneyFromNumber })
 * const line = { sku: 'MUG-LOGO', price: Money.fromCents(850) }
 * assert.equal(pipe(line, Json.stringify(Line)), '{"sku":"MUG-LOGO","price":8.5}')
 * assert.equal(JSON.stringify(line), '{"sku":"MUG-LOGO","price":"8.5"}') // what to avoid
 * ```
 *
 * @category encoding
 * @since 0.2.0
 */
export const stringify =
  <A, O>(codec: t.Encoder<A, O>, space?: number | string) =>
  (value: A): string =>
    JSON.stringify(codec.encode(value), null, space)

// -------------------------------------------------------------------------------------
// decoding
// -------------------------------------------------------------------------------------

const NOT_JSON: CodedFieldError = fieldError('', { code: 'json' })

/**
 * JSON text decoded with `codec`: Left with one error at `""` when the text is not JSON
 * (the text is not repeated), else the codec's field errors. Never throws.
 *
 * @example
 * ```ts
 * import { Json, Money, MoneyFromNumber } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const Line = t.type({ sku: t.string, price: MoneyFromNumber })
 * const line = Json.parse(Line)('{"sku":"MUG-LOGO","price":8.5}')
 * assert.ok(E.isRight(line))
 * assert.equal(Money.toCents(line.right.price), 850n)
 * assert.deepEqual(
 *   Json.parse(Line)('{"sku":'),
 *   E.left([{ path: '', message: 'must be JSON text', code: 'json' }]),
 * )
 * ```
 *
 * @category decoding
 * @since 0.2.0
 */
export const parse =
  <A, O>(codec: t.Type<A, O, unknown>) =>
  (text: string): E.Either<ReadonlyArray<CodedFieldError>, A> => {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return E.left([NOT_JSON])
    }
    return validate(codec)(json)
  }
