/**
 * Request samples shared by the suites that run against both fakes (the client suite and
 * the HTTP suite): one buyer and her card, expiring in December of next year.
 */

/** The buyer of the samples (`customer` of `POST /paymentmethods`, no phone). */
export const adaCustomer = { id: 'cus-1', name: 'Ada Lovelace', email: 'ada@example.com' }

/** Ada's card with `number` (`card` of `POST /paymentmethods`, no `singleUse`). */
export const adaCard = (number: string) => ({
  number,
  expirationMonth: '12',
  expirationYear: String(new Date().getUTCFullYear() + 1),
  cvv: '123',
  cardHolder: 'Ada Lovelace',
})
