/**
 * The fast forms of the model's records, found by name for a record the model marks
 * `unrolled` (`codec.ts`): the model declares plain io-ts codecs and imports none of them,
 * and every `validate` finds them, whatever entry or module it was imported from. The
 * forms are generated from the model's codecs (`fastForms.generated`).
 */
import type * as t from 'io-ts'
import type { Compile, FastDecoder } from './fastDecoder.js'
import { generatedForms } from './fastForms.generated.js'

/** The fast decoder of `codec`, a record marked `unrolled`, from its form. */
export const unrolledForms = (
  codec: t.Decoder<unknown, unknown>,
  compile: Compile,
  structural: () => FastDecoder,
): FastDecoder => {
  const form = Object.hasOwn(generatedForms, codec.name) ? generatedForms[codec.name] : undefined
  if (form === undefined)
    throw new Error(
      `${codec.name} is marked unrolled but has no fast form: run packages/core/scripts/fastForms.ts --write`,
    )
  return form(codec, compile, structural)
}
