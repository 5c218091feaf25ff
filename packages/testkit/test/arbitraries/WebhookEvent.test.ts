import { validate } from '@paykit/core'
import { WebhookEvent } from '@paykit/core/webhook'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_STATUS, webhookEvent } from '../../src/arbitraries/WebhookEvent.js'

describe('webhookEvent', () => {
  it('draws every event type, its order in the status the type reports, created before the event', () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(webhookEvent(), (json) => {
        const event = validate(WebhookEvent)(json)
        if (event._tag === 'Left') throw new Error(JSON.stringify(event.left))
        seen.add(event.right.type)
        expect(event.right.data.orderStatus).toBe(WEBHOOK_EVENT_STATUS[event.right.type])
        expect(Date.parse(event.right.createdAt)).toBeGreaterThanOrEqual(
          Date.parse(event.right.data.created),
        )
        expect(event.right.data.payment !== null).toBe(event.right.type !== 'order.cancelled')
      }),
      { numRuns: 300 },
    )
    expect([...seen].sort()).toEqual(['order.cancelled', 'order.finalized', 'order.paid'])
  })

  it('keeps to the types asked for', () => {
    for (const json of fc.sample(webhookEvent({ types: ['order.paid'] }), 50))
      expect(json.type).toBe('order.paid')
    expect(() => webhookEvent({ types: [] })).toThrow(RangeError)
  })
})
