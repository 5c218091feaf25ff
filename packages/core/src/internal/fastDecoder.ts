/**
 * What a fast decoder is (see `fastDecode`): a plain function from any input to the very
 * value io-ts's `decode` gives, or {@link FAIL}. A leaf module, so that the modules that
 * compile codecs and those that walk records share it without a cycle.
 */
import type * as t from 'io-ts'

/** What a fast decoder returns for input that does not decode. */
export const FAIL: unique symbol = Symbol('FAIL')

/**
 * Whether `v` is {@link FAIL}. The `typeof` check comes first: V8 answers it from the
 * value's shape, and then compares two symbols by address, where `v === FAIL` alone, with
 * values of every type met there, is a call to its generic comparison.
 */
export const failed = (v: unknown): v is typeof FAIL => typeof v === 'symbol' && v === FAIL

/** The value `decode` gives, or `FAIL`. */
export type FastDecoder = (u: unknown) => unknown

/** Whether `decoder` decodes `v` to `v` itself. */
export const asIs = (decoder: FastDecoder, v: unknown): boolean => decoder(v) === v

/** Compiles a codec into its fast decoder (once: compiled decoders are cached). */
export type Compile = (codec: t.Decoder<unknown, unknown>) => FastDecoder

/**
 * Builds the fast decoder of a codec from the fast decoders of the codecs it wraps;
 * `structural` compiles the codec as if it had no fast path of its own (from its io-ts
 * structure), for a fast path that handles the commonest inputs and leaves the rest to it.
 */
export type FastPathBuilder = (compile: Compile, structural: () => FastDecoder) => FastDecoder

const builders = new WeakMap<object, FastPathBuilder>()

/** Records how to decode `codec` fast (a core combinator); returns `codec`. */
export const withFastPath = <T extends object>(codec: T, build: FastPathBuilder): T => {
  builders.set(codec, build)
  return codec
}

/** How to decode `codec` fast, if a combinator recorded it. */
export const builderOf = (codec: object): FastPathBuilder | undefined => builders.get(codec)

const unrolled = new WeakSet<object>()

/**
 * Marks `codec` as a record of the model whose fast form, read member by member, is
 * registered under its name in `fastRecords` (the model does not import it); returns
 * `codec`.
 */
export const markUnrolled = <T extends object>(codec: T): T => {
  unrolled.add(codec)
  return codec
}

/** Whether `codec` was marked by {@link markUnrolled}. */
export const isUnrolled = (codec: object): boolean => unrolled.has(codec)

/**
 * The fast form of a record marked by {@link markUnrolled}: `codec` is that record, from
 * which the form takes its members' codecs.
 */
export type UnrolledForm = (
  codec: t.Decoder<unknown, unknown>,
  compile: Compile,
  structural: () => FastDecoder,
) => FastDecoder

/**
 * The members of `codec`, a `type` (maybe `exact`) or `partial`, checked to be `keys` in
 * this order: a form that reads members by name must read them all.
 */
export const membersOf = (
  codec: t.Decoder<unknown, unknown>,
  keys: ReadonlyArray<string>,
): Readonly<Record<string, t.Decoder<unknown, unknown>>> => {
  type Tagged = {
    readonly _tag?: string
    readonly type?: Tagged
    readonly props?: Readonly<Record<string, t.Decoder<unknown, unknown>>>
  }
  const tagged = codec as Tagged
  const props = (tagged._tag === 'ExactType' ? tagged.type : tagged)?.props
  if (props === undefined || Object.keys(props).join() !== keys.join())
    throw new Error(`${codec.name}: its members are not ${keys.join(', ')}; update its fast form`)
  return props
}

// -------------------------------------------------------------------------------------
// what a failed walk found
// -------------------------------------------------------------------------------------

/**
 * What the last walk of a record by a fast decoder found when it failed at its members
 * (`fastRecord`), so that the errors' walk (`fastRecordErrors`) of the same record in the
 * same `validate` need not decode them again: the record, the `validate` it was walked in,
 * the slots of the members it visited and of those that failed, and whether it has other
 * keys.
 */
export interface WalkMemo {
  record: object | undefined
  run: number
  seen: number
  failing: number
  /** Whether the record has keys of no member (io-ts's copy of it reads them). */
  others: boolean
}

/** The current `validate`: a memo of an earlier one may be of a record changed since. */
export const runs = { current: 0 }

/**
 * The tags of io-ts's codecs whose `validate` gives the input itself when `is` holds and
 * otherwise fails with one error of no message: the fast decoder runs their `is`, the
 * error collector reports that one error.
 */
export const AS_IS_TAGS: ReadonlySet<string> = new Set([
  'StringType',
  'NumberType',
  'BigIntType',
  'BooleanType',
  'NullType',
  'UndefinedType',
  'VoidType',
  'UnknownType',
  'AnyType',
  'UnknownRecordType',
  'UnknownArrayType',
  'LiteralType',
  'KeyofType',
  'FunctionType',
])

const memos = new WeakMap<FastDecoder, WalkMemo>()

/** Records the memo `decoder` writes; returns `decoder`. */
export const withWalkMemo = (decoder: FastDecoder, memo: WalkMemo): FastDecoder => {
  memos.set(decoder, memo)
  return decoder
}

/** The memo `decoder` writes, if it walks records. */
export const walkMemoOf = (decoder: FastDecoder): WalkMemo | undefined => memos.get(decoder)
