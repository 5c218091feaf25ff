import { validate } from '@paykit/core'
import {
  ChargeRequest,
  PaymentLinkRequest,
  PaymentMethodRequest,
  TokenRequest,
  chargeRequestFor,
  paymentMethodRequestAt,
} from '@paykit/core/codecs'
import type { FieldError } from '@paykit/core'
import * as E from 'fp-ts/lib/Either.js'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { chargeValidationProperties } from '../../src/properties/Charge.js'
import { paymentLinkValidationProperties } from '../../src/properties/PaymentLink.js'
import { paymentMethodValidationProperties } from '../../src/properties/PaymentMethod.js'
import type { Validate } from '../../src/properties/Validation.js'
import { concerns } from '../../src/properties/Validation.js'
import { defaultProducts } from '../../src/simulator/TestCards.js'
import {
  describeChargeValidation,
  describePaymentLinkValidation,
  describePaymentMethodValidation,
  describeTokenValidation,
} from '../../src/vitest/index.js'

vi.setConfig({ testTimeout: 60_000 })

const now = new Date('2026-11-22T12:00:00.000Z')

// The suites, run as an integrator runs them: one call each, against the core.
describeTokenValidation({ validate: validate(TokenRequest) })
describePaymentMethodValidation({ validate: validate(paymentMethodRequestAt(now)), now })
describePaymentMethodValidation({ validate: validate(PaymentMethodRequest) })
describeChargeValidation({ validateFor: (pm) => validate(chargeRequestFor(pm)) })
describePaymentLinkValidation({ validate: validate(PaymentLinkRequest) })
describePaymentLinkValidation({
  validate: async (input) => Promise.resolve(validate(PaymentLinkRequest)(input)),
  arbitrary: { catalogue: defaultProducts },
  numRuns: 50,
})

// And the suites fail for validations that get it wrong.
const fails = async <Ts extends [unknown]>(property: fc.IAsyncProperty<Ts>): Promise<boolean> =>
  (await fc.check(property, { numRuns: 300, seed: 1 })).failed

const core = validate(PaymentLinkRequest)
const renamed =
  (rename: (path: string) => string): Validate =>
  (input) =>
    E.mapLeft((errors: ReadonlyArray<FieldError>) =>
      errors.map((e) => ({ ...e, path: rename(e.path) })),
    )(core(input))

describe('the payment-link properties fail', () => {
  it('for a validation that accepts everything', async () => {
    const p = paymentLinkValidationProperties(() => E.right(null))
    expect(await fails(p.refusesInvalid)).toBe(true)
    expect(await fails(p.acceptsValid)).toBe(false)
  })

  it('for a validation that refuses everything', async () => {
    const p = paymentLinkValidationProperties(() => E.left([{ path: '', message: 'no' }]))
    expect(await fails(p.acceptsValid)).toBe(true)
  })

  it('for a validation that names only the root', async () => {
    expect(await fails(paymentLinkValidationProperties(renamed(() => '')).refusesInvalid)).toBe(
      true,
    )
  })

  it('for a validation that also names an unrelated field', async () => {
    const extra: Validate = (input) =>
      E.mapLeft((errors: ReadonlyArray<FieldError>) => [
        ...errors,
        { path: 'orderName', message: 'also' },
      ])(core(input))
    expect(await fails(paymentLinkValidationProperties(extra).refusesInvalid)).toBe(true)
  })

  it('for a validation that forgets a limit (orderDescription over 2048 characters)', async () => {
    const lenient: Validate = (input) =>
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? core({ ...input, orderDescription: undefined })
        : core(input)
    expect(await fails(paymentLinkValidationProperties(lenient).refusesInvalid)).toBe(true)
  })

  it('for a validation that throws on some input', async () => {
    const throwing: Validate = (input) => {
      if (input === null) throw new Error('boom')
      return core(input)
    }
    expect(await fails(paymentLinkValidationProperties(throwing).neverThrows)).toBe(true)
    expect(await fails(paymentLinkValidationProperties(core).neverThrows)).toBe(false)
  })
})

describe('the payment-method properties fail', () => {
  it('for a validation whose message repeats the card number', async () => {
    const leaky: Validate = (input) => {
      const result = validate(paymentMethodRequestAt(now))(input)
      const number = (input as { card?: { number?: unknown } } | null)?.card?.number
      return typeof number === 'string'
        ? E.mapLeft((errors: ReadonlyArray<FieldError>) =>
            errors.map((e) => ({ ...e, message: `${e.message} (${number})` })),
          )(result)
        : result
    }
    expect(await fails(paymentMethodValidationProperties(leaky, { now }).refusesInvalid)).toBe(true)
  })

  it('for a validation that ignores the expiry', async () => {
    const later = paymentMethodRequestAt(new Date('1999-01-01T00:00:00.000Z'))
    const p = paymentMethodValidationProperties(validate(later), { now })
    expect(await fails(p.refusesInvalid)).toBe(true)
  })
})

describe('the charge properties fail', () => {
  it('for a validation that forgets the billingInfo rule of USA and CAN cards', async () => {
    const p = chargeValidationProperties(() => validate(ChargeRequest))
    expect(await fails(p.refusesInvalid)).toBe(true)
    expect(await fails(p.acceptsValid)).toBe(false)
  })
})

describe('concerns', () => {
  it('relates a field to itself and the fields below it only', () => {
    expect(concerns('lineItems[2]', 'lineItems[2].product.price')).toBe(true)
    expect(concerns('card', 'card.number')).toBe(true)
    expect(concerns('card', 'cardId')).toBe(false)
    expect(concerns('lineItems[1]', 'lineItems[10]')).toBe(false)
    expect(concerns('', '')).toBe(true)
    expect(concerns('', 'amount')).toBe(false)
  })
})
