import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fieldError, fieldErrorCodes, validate } from '../../src/model/FieldError.js'
import {
  buyerMessage,
  buyerMessageWith,
  fallbackBuyerMessage,
  fieldLabels,
  messages,
} from '../../src/model/Messages.js'
import { cardAt } from '../../src/model/PaymentMethod.js'

const NOW = new Date('2026-06-15T00:00:00Z')
const card = {
  number: '4242424242424242',
  expirationMonth: '12',
  expirationYear: '2030',
  cvv: '123',
}

/** What a buyer reads for a card as the checkout sends it (paths under `card.`). */
const sentences = (patch: Record<string, unknown>): ReadonlyArray<string> => {
  const r = validate(cardAt(NOW))({ ...card, ...patch })
  return E.isLeft(r) ? r.left.map((e) => buyerMessage({ ...e, path: `card.${e.path}` })) : []
}

const CARD_SENTENCES: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
  [{ number: '4242424242424241' }, 'The card number is not valid.'],
  [{ number: '4242-4242-abcd' }, 'The card number is not valid.'],
  [{ number: '4242' }, 'The card number is not valid.'],
  [{ number: '' }, 'Enter the card number.'],
  [{ number: undefined }, 'Enter the card number.'],
  [{ expirationMonth: '13' }, 'The expiry month is not valid: enter two digits from 01 to 12.'],
  [{ expirationMonth: '' }, 'Enter the expiry month.'],
  [{ expirationYear: '30' }, 'The expiry year is not valid: enter four digits (YYYY).'],
  [{ expirationYear: '' }, 'Enter the expiry year.'],
  [{ expirationYear: '2020' }, 'The card has expired.'],
  [{ expirationYear: '2026', expirationMonth: '05' }, 'The card has expired.'],
  [{ cvv: '12' }, 'The security code (CVV) must be 3 or 4 digits.'],
  [{ cvv: '' }, 'Enter the security code (CVV).'],
  [{ cardHolder: 7 }, 'The name on the card is not valid.'],
]

describe('messages', () => {
  it('has a sentence for every code', () => {
    expect(Object.keys(messages).sort()).toEqual([...fieldErrorCodes].sort())
  })

  // The sentences the sandbox's checkout page said before they moved into the core.
  it.each(CARD_SENTENCES)('a card with %j reads "%s"', (patch, sentence) => {
    expect(sentences(patch)).toEqual([sentence])
  })

  it('says a declined card and a missing choice without naming a field', () => {
    expect(buyerMessage(fieldError('card', { code: 'declined', reason: 'FRAUD_PREVENT' }))).toBe(
      'The card was declined. Try another card.',
    )
    expect(buyerMessage(fieldError('action', { code: 'oneOf', values: ['pay', 'cancel'] }))).toBe(
      'Choose Pay or Cancel.',
    )
  })

  it('words the parameters of a code', () => {
    expect(messages.maxLength({ code: 'maxLength', maximum: 512 }, 'image address')).toBe(
      'The image address must be at most 512 characters.',
    )
    expect(messages.minimum({ code: 'minimum', minimum: 0, inclusive: false }, 'amount')).toBe(
      'The amount must be more than 0.',
    )
    expect(messages.minimum({ code: 'minimum', minimum: 0, inclusive: true }, 'price')).toBe(
      'The price must be 0 or more.',
    )
    expect(
      messages.requiredForCountry(
        { code: 'requiredForCountry', countries: ['USA', 'CAN'] },
        'billing address',
      ),
    ).toBe('Enter the billing address: cards issued in USA or CAN need it.')
  })
})

describe('buyerMessage', () => {
  it('reads a field error without a code from its message', () => {
    expect(buyerMessage({ path: 'card.number', message: 'fails the Luhn check' })).toBe(
      'The card number is not valid.',
    )
    expect(buyerMessage({ path: 'card.number', message: 'is required' })).toBe(
      'Enter the card number.',
    )
  })

  it('says the fallback for a field without a label', () => {
    expect(buyerMessage(fieldError('orderName', { code: 'maxLength', maximum: 255 }))).toBe(
      fallbackBuyerMessage,
    )
    // a path that is a key of Object.prototype is no label either
    expect(buyerMessage(fieldError('toString', { code: 'required' }))).toBe(fallbackBuyerMessage)
  })

  it('takes the labels, sentences and fallback of another language', () => {
    const spanish = buyerMessageWith({
      messages: { ...messages, required: (_, field) => `Ingrese ${field}.` },
      labels: { ...fieldLabels, 'card.cvv': 'el código de seguridad' },
      fallback: 'Revise los datos.',
    })
    expect(spanish(fieldError('card.cvv', { code: 'required' }))).toBe(
      'Ingrese el código de seguridad.',
    )
    expect(spanish(fieldError('x', { code: 'required' }))).toBe('Revise los datos.')
  })

  test.prop([
    fc.record({
      number: fc.string(),
      expirationMonth: fc.string(),
      expirationYear: fc.string(),
      cvv: fc.string(),
      cardHolder: fc.oneof(fc.string(), fc.integer()),
    }),
  ])('never repeats what was typed: a card reads as one of a few fixed sentences', (typed) => {
    const known = new Set(CARD_SENTENCES.map(([, sentence]) => sentence))
    for (const sentence of sentences(typed)) expect(known).toContain(sentence)
  })
})
