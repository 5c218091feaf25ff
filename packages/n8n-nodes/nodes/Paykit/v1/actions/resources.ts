/** The resources of the node, version 1: the description and the router read them here. */
import type { Resource } from './Action'
import { charge } from './charge/Charge.resource'
import { orderEvent } from './orderEvent/OrderEvent.resource'
import { paymentLink } from './paymentLink/PaymentLink.resource'
import { paymentMethod } from './paymentMethod/PaymentMethod.resource'

/** Every resource, by its value, in the order their fields are listed. */
export const RESOURCES: Readonly<Record<string, Resource>> = {
  paymentLink,
  paymentMethod,
  charge,
  orderEvent,
}
