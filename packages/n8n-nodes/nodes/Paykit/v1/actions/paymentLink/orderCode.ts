/**
 * What Payment Link → Get Order and Wait for Status share: the Order Code field, its
 * reading, and the order as output JSON.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { PaykitError } from '@paykit/core/pure'
import { OrderDetails, validationError } from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow'

/** The Order Code field. */
export const orderCodeField: INodeProperties = {
  displayName: 'Order Code',
  name: 'orderCode',
  type: 'string',
  required: true,
  default: '',
  placeholder: 'OC00001001',
  description: 'The order code returned when the link was created',
}

/** The order code of item `i`, required. */
export const orderCodeOf = (ctx: IExecuteFunctions, i: number): E.Either<PaykitError, string> => {
  const code = String(ctx.getNodeParameter('orderCode', i, '')).trim()
  return code === ''
    ? E.left(validationError([{ path: 'Order Code', message: 'is required' }], 'order code'))
    : E.right(code)
}

/** The order as output JSON. */
export const encodeOrder = TE.map(
  (order: OrderDetails): IDataObject => OrderDetails.encode(order) as unknown as IDataObject,
)
