/**
 * The core's client for one execution of a node: its transport is n8n's request helpers
 * with the `Paykit API` credential (the credential authenticates, n8n keeps the token),
 * its sleep is n8n's, its clock the wall clock. Nothing outlives the execution.
 */
import type { Client } from '@paykit/core/pure'
import { createClientWith } from '@paykit/core/pure'
import { sleep } from 'n8n-workflow'
import { baseUrlOf } from './credential'
import { n8nTransport, PAYKIT_API, type RequestContext } from './transport'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A client and what its transport learnt of the credential. */
interface ExecutionClient {
  readonly client: Client
  readonly credentialFailure: () => string | undefined
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** n8n's sleep resolves early, not with an error, when the signal fires (the core's contract). */
const n8nSleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
  try {
    await sleep(ms, signal)
  } catch {
    // aborted: the caller checks its signal
  }
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The client of an execution; `timeoutMs` bounds each HTTP request. */
export const executionClient = async (
  ctx: RequestContext,
  timeoutMs: number,
): Promise<ExecutionClient> => {
  const credentials = await ctx.getCredentials(PAYKIT_API)
  const { transport, credentialFailure } = n8nTransport(ctx, credentials)
  const client = createClientWith({
    baseUrl: baseUrlOf(credentials),
    credentials: 'transport',
    transport,
    timeoutMs,
    now: () => Date.now(),
    sleep: n8nSleep,
  })
  return { client, credentialFailure }
}
