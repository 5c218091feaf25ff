/**
 * The fast forms of the model's records, found by name for a record the model marks
 * `unrolled` (`codec.ts`): the model declares plain io-ts codecs and imports none of them,
 * and every `validate` finds them, whatever entry or module it was imported from.
 */
import type * as t from 'io-ts'
import type { Compile, FastDecoder, UnrolledForm } from './fastDecoder.js'
import { orderForms } from './fastOrder.js'
import { paymentLinkForms } from './fastPaymentLink.js'

const forms: Readonly<Record<string, UnrolledForm>> = { ...orderForms, ...paymentLinkForms }

/** The fast decoder of `codec`, a record marked `unrolled`, from its form. */
export const unrolledForms = (
  codec: t.Decoder<unknown, unknown>,
  compile: Compile,
  structural: () => FastDecoder,
): FastDecoder => {
  const form = Object.hasOwn(forms, codec.name) ? forms[codec.name] : undefined
  if (form === undefined) throw new Error(`${codec.name} is marked unrolled but has no fast form`)
  return form(codec, compile, structural)
}
