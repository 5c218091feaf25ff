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
