/**
 * How the suites look for a copy of a CVV in a page, a log or an error. Three or four digits
 * also occur by chance in a port (`:33215`), a timestamp's milliseconds (`.987Z`) or an order
 * code, so a CVV counts as copied only where its digits stand alone, and the suites that read
 * such text type a four-digit CVV that is no year, port or millisecond.
 */

/** A four-digit CVV no timestamp, port or year of the suites' texts can contain by chance. */
export const distinctiveCvv = '8461'

/** Matches `cvv` where its digits stand alone: not inside a longer run of digits. */
export const cvvCopy = (cvv: string): RegExp => new RegExp(`(?<!\\d)${cvv}(?!\\d)`)
