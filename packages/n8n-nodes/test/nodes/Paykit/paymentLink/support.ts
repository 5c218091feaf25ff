/**
 * What the Payment Link tests share: the Create node's workflow, a new order made through
 * the node, the link creations the sandbox received, and the words no message shows.
 */
import { expect } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { paykitNode, run, singleNodeWorkflow } from '../../../support.js'

/** Manual Trigger -> Payment Link → Create (`Create Link`) with `parameters`. */
export const create = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  singleNodeWorkflow(
    paykitNode(
      'Create Link',
      { resource: 'paymentLink', operation: 'create', ...parameters },
      extra,
    ),
  )

/** The order code of a new payment link for `amount`, made through the node. */
export const newOrder = async (sandbox: Sandbox, amount: number): Promise<string> => {
  const created = await run(sandbox, create({ orderSource: 'item' }), [{ amount }])
  return String(created.nodes['Create Link']?.[0]?.[0]?.json.orderCode)
}

/** The link creations `sandbox` received. */
export const checkoutRequests = (sandbox: Sandbox) =>
  sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout')

/** What no message of `error` shows: the core's option names, doubled full stops. */
export const expectNodeWords = (error: unknown) => {
  const { message, description, messages } = (error ?? {}) as {
    message?: unknown
    description?: unknown
    messages?: unknown
  }
  const text = JSON.stringify([message, description, messages])
  expect(text).not.toMatch(/timeoutMs|intervalMs|baseUrl|\.\./)
}
