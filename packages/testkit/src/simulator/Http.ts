/**
 * The plain HTTP exchange the simulator speaks. Both adapters (nock and the node:http
 * sandbox) translate to and from these, so no service logic lives in an adapter.
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One request as the service receives it. `path` includes the query string. */
export interface SimRequest {
  readonly method: string
  readonly path: string
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  /** The raw body ("" when none). */
  readonly body: string
}

/** One response as the service sends it. */
export interface SimResponse {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}
