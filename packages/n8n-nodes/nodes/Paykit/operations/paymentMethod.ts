/**
 * Payment Method → Create: a card registered with the service. One item at a time, never
 * repeated once it may have been sent. The output keeps at most the card's last four
 * digits; the number and the CVV appear in no output and no error.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { PaymentMethodRequestOutput } from '@paykit/core/pure'
import {
  PaymentMethod,
  PaymentMethodRequest,
  last4,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { IDataObject } from 'n8n-workflow'
import type { Operation } from '../../../shared/items'

interface AdditionalFields {
  readonly cardHolder?: string
  readonly singleUse?: boolean
  readonly id?: string
  readonly name?: string
  readonly email?: string
  readonly phoneNumber?: string
}

const CUSTOMER_FIELDS = ['id', 'name', 'email', 'phoneNumber'] as const

/** Payment Method → Create. */
export const create: Operation<PaymentMethodRequestOutput> = {
  concurrent: false,
  prepare: (ctx, i) => {
    const extra = ctx.getNodeParameter('additionalFields', i, {}) as AdditionalFields
    const customer: IDataObject = {}
    for (const name of CUSTOMER_FIELDS) {
      const value = extra[name]
      if (typeof value === 'string' && value !== '') customer[name] = value
    }
    const request = {
      ...(Object.keys(customer).length > 0 ? { customer } : {}),
      card: {
        number: ctx.getNodeParameter('cardNumber', i),
        expirationMonth: ctx.getNodeParameter('expirationMonth', i),
        expirationYear: ctx.getNodeParameter('expirationYear', i),
        cvv: ctx.getNodeParameter('cvv', i),
        ...(extra.cardHolder ? { cardHolder: extra.cardHolder } : {}),
        ...(extra.singleUse === undefined ? {} : { singleUse: extra.singleUse }),
      },
    }
    return pipe(
      validate(PaymentMethodRequest)(request),
      E.bimap(
        (errors) => validationError(errors, 'payment method request'),
        (valid) => PaymentMethodRequest.encode(valid),
      ),
    )
  },
  send: (client, request, signal) =>
    pipe(
      client.createPaymentMethod(request, signal ? { signal } : {}),
      TE.map((method): IDataObject => ({
        ...PaymentMethod.encode(method),
        card: {
          last4: last4(request.card.number),
          expirationMonth: request.card.expirationMonth,
          expirationYear: request.card.expirationYear,
        },
      })),
    ),
}
