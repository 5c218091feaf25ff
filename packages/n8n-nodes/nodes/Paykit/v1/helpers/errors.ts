/**
 * The core's typed errors as n8n errors: bad input is a `NodeOperationError` naming the
 * field, an answer or silence of the service is a `NodeApiError` carrying the problem
 * details' field messages. Messages are the core's in the node's words (`messages`): they
 * keep secrets and card data out, as the core does.
 */
import type { FieldError, PaykitError } from '@paykit/core/pure'
import { REDACTED, formatFieldErrors, fromErrorMap, matchError } from '@paykit/core/pure'
import type { INode, JsonObject } from 'n8n-workflow'
import { looksLikeCardNumber } from './fieldPath'
import { NodeApiError, NodeOperationError } from 'n8n-workflow'
import { messageOf, unknownOutcomeAdviceOf } from './messages'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What an item can fail with. */
export type ItemError = NodeApiError | NodeOperationError

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const fieldLines = (errors: ReadonlyArray<FieldError>): string =>
  errors.map(({ path, message }) => (path === '' ? message : `${path}: ${message}`)).join('\n')

/**
 * Parameters that could hold card data: the card parameters of an older saved workflow,
 * and the field-name parameters of Payment Method → Create when a card was typed into one
 * by mistake (the node refuses that, and its errors must not repeat it).
 */
const CARD_PARAMETERS: ReadonlySet<string> = new Set([
  'cardNumber',
  'cvv',
  'cardNumberField',
  'expirationMonthField',
  'expirationYearField',
  'cvvField',
])

/** A parameter value that is card data rather than a field name (a run of digits). */
const looksLikeCardData = (value: string): boolean =>
  looksLikeCardNumber(value) || /^\s*\d{3,4}\s*$/.test(value)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The node as an error may carry it: n8n puts the node, parameters included, into every
 * error it reports, so the card parameters are replaced by `[redacted]`.
 */
export const redactedNode = (node: INode): INode => ({
  ...node,
  parameters: Object.fromEntries(
    Object.entries(node.parameters).map(([name, value]) => [
      name,
      CARD_PARAMETERS.has(name) && typeof value === 'string' && looksLikeCardData(value)
        ? REDACTED
        : value,
    ]),
  ),
})

/**
 * The n8n error of a core error for item `itemIndex`. `credentialFailure` is why no token
 * could be had, when the transport saw that (it replaces a "no response" that hides it).
 */
export const toNodeError = (
  realNode: INode,
  error: PaykitError,
  itemIndex: number,
  credentialFailure?: string,
): ItemError => {
  const node = redactedNode(realNode)
  if (credentialFailure !== undefined && error._tag === 'NetworkError' && error.sent === 'no')
    return new NodeApiError(node, { message: credentialFailure } as JsonObject, {
      itemIndex,
      httpCode: '401',
      message: credentialFailure,
      description: `Nothing was sent (${error.operation}).`,
    })
  const message = messageOf(error)
  const advice = unknownOutcomeAdviceOf(error)
  // n8n keeps the response's `message` among the error's messages: the node's, not the core's.
  const response = { ...error, message } as unknown as JsonObject
  return matchError<ItemError>({
    ValidationError: (e) =>
      new NodeOperationError(node, message, {
        itemIndex,
        description: fieldLines(e.fieldErrors),
      }),
    HttpError: (e) => {
      const fields = e.problem?.errors === undefined ? [] : fromErrorMap(e.problem.errors)
      return new NodeApiError(node, response, {
        itemIndex,
        httpCode: String(e.status),
        message,
        description:
          advice ?? (fields.length === 0 ? (e.problem?.title ?? '') : fieldLines(fields)),
      })
    },
    DecodeError: (e) =>
      new NodeApiError(node, response, {
        itemIndex,
        httpCode: String(e.status),
        message,
        description: advice ?? formatFieldErrors(e.fieldErrors),
      }),
    NetworkError: () =>
      new NodeApiError(node, response, {
        itemIndex,
        message,
        ...(advice === undefined ? {} : { description: advice }),
      }),
    Timeout: () =>
      new NodeApiError(node, response, {
        itemIndex,
        message,
        ...(advice === undefined ? {} : { description: advice }),
      }),
    Unauthorized: () =>
      new NodeApiError(node, response, {
        itemIndex,
        httpCode: '401',
        message,
        ...(advice === undefined ? {} : { description: advice }),
      }),
  })(error)
}

/**
 * The JSON of an error item (Continue On Fail): `error`, the message, and `details`: the
 * core's error tag, the field errors when the input or the service named fields, the HTTP
 * status when there was one, and `outcomeUnknown` for a charge that may have gone through.
 * Nothing else at the top level, so that n8n routes the item to the error output when the
 * node's setting says so.
 */
export const errorJson = (error: ItemError, cause?: PaykitError): JsonObject => {
  const fields =
    cause?._tag === 'ValidationError' || cause?._tag === 'DecodeError'
      ? cause.fieldErrors
      : cause?._tag === 'HttpError' && cause.problem?.errors !== undefined
        ? fromErrorMap(cause.problem.errors)
        : []
  return {
    error: error.message,
    details: {
      ...(cause === undefined ? {} : { errorType: cause._tag }),
      ...(fields.length === 0
        ? {}
        : { fieldErrors: fields.map(({ path, message }) => ({ path, message })) }),
      ...(error instanceof NodeApiError && error.httpCode !== null
        ? { httpCode: error.httpCode }
        : {}),
      ...(cause !== undefined && 'outcomeUnknown' in cause && cause.outcomeUnknown
        ? { outcomeUnknown: true }
        : {}),
    },
  }
}
