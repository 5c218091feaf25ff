/** Charge → Create: a saved card charged for an order, the first attempt (no authentication). */
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'
import type { ChargeInput } from './chargeRequest'
import { chargeFieldsAfter, chargeFieldsBefore, chargeOf, send } from './chargeRequest'

/** A charge's outputs, by outcome unless the node's Outputs field says Single. */
export { outputs, route } from './chargeOutputs'

/** Charge → Create: its entry in the Operation list and its fields. */
export const description: OperationDescription = {
  option: {
    name: 'Create',
    action: 'Charge a payment method',
    description:
      'Charge a saved card for an order (POST /charges). Ends SUCCEEDED, FAILED or AUTHENTICATION_REQUIRED.',
  },
  properties: [...chargeFieldsBefore, ...chargeFieldsAfter],
}

/** Charge → Create (authenticationId null): one item at a time; never an AI tool (it moves money). */
export const operation: Operation<ChargeInput> = {
  concurrent: false,
  toolSafe: false,
  prepare: chargeOf,
  send,
}
