/**
 * Charge operations: a charge of a saved card, and its completion after 3DS. One item at a
 * time; the core never repeats a charge that may have reached the service. Completion
 * goes through the core's charge-flow reducer: the charge is repeated only after a frame
 * message `authentication.complete` with Status SUCCESS.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type {
  ChargeRequest as ChargeRequestType,
  ChargeRequestInput,
  FieldError,
  PaykitError,
} from '@paykit/core/pure'
import {
  ChargeFlow,
  ChargeRequest,
  ChargeResponse,
  FrameMessage,
  Money,
  chargeRequestFor,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow'
import { amountFromInput } from '../../../shared/conversions'
import type { Operation } from '../../../shared/items'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

interface ChargeInput {
  readonly request: ChargeRequestInput
  readonly decoded: ChargeRequestType
  readonly cardCountryCode: string | undefined
}

interface AdditionalFields {
  readonly cardCountryCode?: string
  readonly description?: string
  readonly name?: string
}

const nonEmpty = (fields: IDataObject): IDataObject =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined))

const invalid = (errors: ReadonlyArray<FieldError>): PaykitError =>
  validationError(errors, 'charge request')

/**
 * The card issuer's country of item `i` when the item carries the payment method, as
 * Payment Method → Create outputs it (`bin.countryCode`); used when the parameter is empty.
 */
const issuerCountryOf = (ctx: IExecuteFunctions, i: number): string | undefined => {
  const bin = ctx.getInputData()[i]?.json.bin
  const country =
    typeof bin === 'object' && bin !== null ? (bin as IDataObject).countryCode : undefined
  return typeof country === 'string' && country.trim() !== '' ? country.trim() : undefined
}

/** The first charge of item `i` (authenticationId null), validated by the core. */
const chargeOf = (ctx: IExecuteFunctions, i: number): E.Either<PaykitError, ChargeInput> => {
  const extra = ctx.getNodeParameter('additionalFields', i, {}) as AdditionalFields
  const billing = nonEmpty(ctx.getNodeParameter('billingInfo', i, {}) as IDataObject)
  // A number as typed, or the text an expression gave ("25.50"), converted exactly.
  const given = ctx.getNodeParameter('amount', i)
  const amount = amountFromInput('order.amount')(given)
  const request = {
    order: {
      id: ctx.getNodeParameter('orderId', i),
      amount: E.isRight(amount) ? amount.right : given,
      ...nonEmpty({ description: extra.description, name: extra.name }),
    },
    cardId: ctx.getNodeParameter('cardId', i),
    authenticationId: null,
    ...(Object.keys(billing).length > 0 ? { billingInfo: billing } : {}),
  }
  const cardCountryCode = extra.cardCountryCode?.trim() || issuerCountryOf(ctx, i)
  const codec =
    cardCountryCode === undefined
      ? ChargeRequest
      : chargeRequestFor({ bin: { countryCode: cardCountryCode } })
  const checked = validate(codec)(request)
  if (E.isLeft(amount))
    return E.left(
      invalid([
        amount.left,
        ...(E.isLeft(checked) ? checked.left.filter((e) => e.path !== amount.left.path) : []),
      ]),
    )
  return pipe(
    checked,
    E.bimap(invalid, (decoded) => ({
      request: request as ChargeRequestInput,
      decoded,
      cardCountryCode,
    })),
  )
}

const parsed = (value: unknown): unknown => {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/**
 * The authentication id to repeat the charge with: given as is, or taken from the frame
 * message only when the core's reducer moves the awaited authentication to ReadyToRetry.
 */
const authenticationIdOf = (
  ctx: IExecuteFunctions,
  i: number,
  charge: ChargeInput,
): E.Either<PaykitError, string> => {
  if (ctx.getNodeParameter('authenticationFrom', i) === 'authenticationId') {
    const id = String(ctx.getNodeParameter('authenticationId', i, '')).trim()
    return id === ''
      ? E.left(invalid([{ path: 'authenticationId', message: 'is required' }]))
      : E.right(id)
  }
  const message = validate(FrameMessage)(parsed(ctx.getNodeParameter('frameMessage', i)))
  if (E.isLeft(message))
    return E.left(
      invalid(
        message.left.map((e) => ({
          ...e,
          path: e.path === '' ? 'frameMessage' : `frameMessage.${e.path}`,
        })),
      ),
    )
  const m = message.right
  const order = charge.decoded.order
  const mismatch: FieldError[] = [
    ...(m.OrderId === order.id
      ? []
      : [{ path: 'frameMessage.OrderId', message: 'is for another order than orderId' }]),
    ...(Money.Eq.equals(m.OrderAmount, order.amount)
      ? []
      : [{ path: 'frameMessage.OrderAmount', message: 'differs from the amount to charge' }]),
  ]
  if (mismatch.length > 0) return E.left(invalid(mismatch))
  const awaiting: ChargeFlow.ChargeFlowState = {
    _tag: 'AwaitingAuthentication',
    request: charge.decoded,
    url: '',
    authenticationId: m.AuthenticationId,
  }
  const next = pipe(awaiting, ChargeFlow.transition(ChargeFlow.frameMessageReceived(m)))
  if (E.isRight(next) && next.right._tag === 'ReadyToRetry')
    return E.right(next.right.authenticationId)
  return E.left(
    invalid([
      {
        path: 'frameMessage.Status',
        message:
          m.Status === 'PENDING'
            ? 'is PENDING: the authentication has not finished; pass the final frame message'
            : `is ${m.Status} (${m.MessageType}): the 3DS authentication did not succeed, so the charge is not repeated`,
      },
    ]),
  )
}

const send: Operation<ChargeInput>['send'] = (client, { request, cardCountryCode }, signal) =>
  pipe(
    client.charge(request, {
      ...(cardCountryCode === undefined
        ? {}
        : { paymentMethod: { bin: { countryCode: cardCountryCode } } }),
      ...(signal ? { signal } : {}),
    }),
    TE.map((response): IDataObject => ({
      ...(ChargeResponse.encode(response) as unknown as IDataObject),
      request: {
        orderId: request.order.id,
        amount: request.order.amount,
        cardId: request.cardId,
        authenticationId: request.authenticationId ?? null,
      },
    })),
  )

// -------------------------------------------------------------------------------------
// operations
// -------------------------------------------------------------------------------------

/** Charge → Create: the first attempt (authenticationId null). */
export const create: Operation<ChargeInput> = { concurrent: false, prepare: chargeOf, send }

/** Charge → Complete After 3DS: the same order and card with the authentication id. */
export const completeAfter3ds: Operation<ChargeInput> = {
  concurrent: false,
  prepare: (ctx, i) =>
    pipe(
      chargeOf(ctx, i),
      E.chain((charge) =>
        pipe(
          authenticationIdOf(ctx, i, charge),
          E.map((authenticationId) => ({
            ...charge,
            request: { ...charge.request, authenticationId },
          })),
        ),
      ),
    ),
  send,
}
