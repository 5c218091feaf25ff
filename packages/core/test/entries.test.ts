import { describe, expect, it } from 'vitest'
import * as browser from '../src/browser/index.js'
import * as client from '../src/client.js'
import * as codecs from '../src/codecs.js'
import * as DefaultClient from '../src/edge/DefaultClient.js'
import * as DefaultRuntime from '../src/edge/DefaultRuntime.js'
import * as FetchTransport from '../src/edge/FetchTransport.js'
import * as root from '../src/index.js'
import * as machines from '../src/machines.js'
import * as money from '../src/money.js'
import * as pure from '../src/pure.js'
import * as WebhookEvent from '../src/signing/WebhookEvent.js'
import * as webhook from '../src/webhook.js'

// The entries by concept (issue 38): each name in one concept entry; the root holds what
// the quick start uses, `/pure` the concept entries' names that need no global and no Node.
const concepts = { client, codecs, money, machines, webhook }
const keys = (module: object): ReadonlyArray<string> => Object.keys(module).sort()

describe('the package entries', () => {
  it('export each name from one concept entry', () => {
    const seen = new Map<string, string>()
    for (const [entry, module] of Object.entries(concepts))
      for (const name of Object.keys(module)) {
        expect(seen.get(name), `${entry}.${name}`).toBeUndefined()
        seen.set(name, entry)
      }
  })

  it('keep the root to the quick start: createClient and validate', () => {
    expect(keys(root)).toEqual(['createClient', 'validate'])
    expect(root.createClient).toBe(client.createClient)
    expect(root.validate).toBe(codecs.validate)
  })

  it('make /pure the concept entries without the Node/browser edge and webhook signing', () => {
    const edge = new Set([
      ...Object.keys(DefaultClient),
      ...Object.keys(DefaultRuntime),
      ...Object.keys(FetchTransport),
    ])
    const signing = new Set(Object.keys(webhook).filter((name) => !(name in WebhookEvent)))
    const union = Object.values(concepts).flatMap((module) => Object.keys(module))
    expect(keys(pure)).toEqual(union.filter((n) => !edge.has(n) && !signing.has(n)).sort())
    for (const name of Object.keys(pure))
      expect(pure[name as keyof typeof pure], name).toBe(
        Object.values(concepts).find((module) => name in module)?.[name as never],
      )
  })

  it('give /browser the frame listener and the machines’ frame message codec', () => {
    const shared = Object.keys(browser).filter((name) => name in pure)
    expect(shared).toEqual(['FrameMessage'])
    expect(browser.FrameMessage).toBe(machines.FrameMessage)
  })
})
