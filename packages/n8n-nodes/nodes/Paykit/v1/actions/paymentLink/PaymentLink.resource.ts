/** The Payment Link resource: create a link, read an order, wait for an order status. */
import { action, resource } from '../Action'
import * as create from './create.operation'
import * as getOrder from './getOrder.operation'
import * as waitForStatus from './waitForStatus.operation'

/** Payment Link: its operations, in the order of the Operation list. */
export const paymentLink = resource(
  { name: 'Payment Link', value: 'paymentLink', defaultOperation: 'create' },
  {
    create: action(create),
    getOrder: action(getOrder),
    waitForStatus: action(waitForStatus),
  },
)
