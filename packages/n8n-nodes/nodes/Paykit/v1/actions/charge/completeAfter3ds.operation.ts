/**
 * Charge → Complete After 3DS: the same order and card charged again with the
 * authentication id. Completion goes through the core's charge-flow reducer: the charge is
 * repeated only after a frame message `authentication.complete` with Status SUCCESS.
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { FieldError, PaykitError } from '@paykit/core/pure'
import { ChargeFlow, FrameMessage, Money, validate } from '@paykit/core/pure'
import type { IExecuteFunctions } from 'n8n-workflow'
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'
import type { ChargeInput } from './chargeRequest'
import { chargeFieldsAfter, chargeFieldsBefore, chargeOf, invalid, send } from './chargeRequest'

/** A charge's outputs, by outcome unless the node's Outputs field says Single. */
export { outputs, route } from './chargeOutputs'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

/** Charge → Complete After 3DS: its entry in the Operation list and its fields. */
export const description: OperationDescription = {
  option: {
    name: 'Complete After 3DS',
    action: 'Complete a charge after 3DS',
    description:
      'Repeat the charge with the authentication ID once the buyer passed 3DS (POST /charges)',
  },
  properties: [
    ...chargeFieldsBefore,
    {
      displayName: 'Authentication From',
      name: 'authenticationFrom',
      type: 'options',
      noDataExpression: true,
      options: [
        {
          name: 'Frame Message',
          value: 'frameMessage',
          description:
            'The message the 3DS frame posted; the charge is repeated only for authentication.complete with Status SUCCESS',
        },
        { name: 'Authentication ID', value: 'authenticationId' },
      ],
      default: 'frameMessage',
    },
    {
      displayName: 'Frame Message',
      name: 'frameMessage',
      type: 'json',
      required: true,
      displayOptions: {
        show: {
          authenticationFrom: ['frameMessage'],
        },
      },
      default: '',
      placeholder: '{"MessageType":"authentication.complete","Status":"SUCCESS", ...}',
      description:
        'MessageType, Status, AuthenticationId, OrderId and OrderAmount, as the frame posted them (for example from a Webhook node: {{ $JSON.body }})',
    },
    {
      displayName: 'Authentication ID',
      name: 'authenticationId',
      type: 'string',
      required: true,
      displayOptions: {
        show: {
          authenticationFrom: ['authenticationId'],
        },
      },
      default: '',
      description: 'The ID of a 3DS authentication that succeeded',
    },
    ...chargeFieldsAfter,
  ],
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

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
  const order = charge.request.order
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
    request: charge.request,
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

// -------------------------------------------------------------------------------------
// operation
// -------------------------------------------------------------------------------------

/** Charge → Complete After 3DS: one item at a time; never an AI tool (it moves money). */
export const operation: Operation<ChargeInput> = {
  concurrent: false,
  toolSafe: false,
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
