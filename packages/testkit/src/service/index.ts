/**
 * `@paykit/testkit/service`: what every way to reach the simulator shares (the nock mock,
 * the sandbox, the in-memory transport, MSW): the live service (the simulator behind a
 * clock), its faults, its request log with secrets redacted, the assertions over that log,
 * its controls and webhook delivery.
 *
 * @module @paykit/testkit/service
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// faults (`Faults` is a namespace: its combinator names are generic)
// -------------------------------------------------------------------------------------
export * as Faults from './Faults.js'
export type { Fault, Failure, Latency, Target as FaultTarget, FaultInjection } from './Faults.js'

// -------------------------------------------------------------------------------------
// controls
// -------------------------------------------------------------------------------------
export * from './ServiceControls.js'

// -------------------------------------------------------------------------------------
// request log and its assertions (redaction is the core's)
// -------------------------------------------------------------------------------------
export {
  DEFAULT_REQUEST_LOG_SIZE,
  makeRequestLog,
  redactPath,
  type LoggedRequest,
  type RequestLog,
} from './RequestLog.js'
export * from './RequestAssertions.js'
export { REDACTED, redactBody, redactHeaders } from '@paykit/core/client'

// -------------------------------------------------------------------------------------
// the live service (`Exchange` is the core client's `onExchange` record)
// -------------------------------------------------------------------------------------
export {
  makeLiveService,
  type Exchange as ServiceExchange,
  type LiveService,
  type LiveServiceOptions,
  type ServiceEvent,
} from './LiveService.js'

// -------------------------------------------------------------------------------------
// webhook delivery
// -------------------------------------------------------------------------------------
export * from './WebhookDelivery.js'
