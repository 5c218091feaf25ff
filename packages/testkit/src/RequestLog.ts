/**
 * The request log both adapters keep: what came in and what went out, with credentials
 * and card data redacted (by the core's `redactHeaders` and `redactBody`) so that the log can
 * be printed in a test failure.
 *
 * @since 0.1.0
 */
import { redactBody, redactHeaders } from '@paykit/core'
import type { SimRequest } from './simulator/Http.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One request as the log keeps it. `status` is the status sent (`undefined` when the
 * answer was lost to an injected fault, named in `fault`).
 *
 * @category model
 * @since 0.1.0
 */
export interface LoggedRequest {
  readonly at: string
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status: number | undefined
  readonly fault: string | undefined
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The log entry of `request`, redacted.
 *
 * @category constructors
 * @since 0.1.0
 */
export const logEntry = (
  request: SimRequest,
  at: Date,
  status: number | undefined,
  fault: string | undefined,
): LoggedRequest => ({
  at: at.toISOString(),
  method: request.method,
  path: request.path,
  headers: redactHeaders(request.headers),
  body: redactBody(request.body),
  status,
  fault,
})
