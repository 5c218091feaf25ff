/**
 * What the suite covers and what the editor shows a saved node, per type version, read with
 * n8n's own helpers from the BUILT nodes: every version a node declares has saved
 * workflows here (the suite grows with each version), a new node gets the newest one, and
 * each saved workflow's nodes show the outputs they are wired to.
 */
import type { INode, INodeTypeDescription } from 'n8n-workflow'
import { NodeHelpers } from 'n8n-workflow'
import { describe, expect, it } from 'vitest'
import { dist } from '../support.js'
import { outputsDrawn, saved, savedVersions } from './support.js'

const paykit = new dist.node.Paykit()
const versionsOf = (node: { nodeVersions: Record<number, unknown> }): ReadonlyArray<number> =>
  Object.keys(node.nodeVersions)
    .map(Number)
    .sort((a, b) => a - b)

/** The Paykit node's description at `version`, as n8n reads it from the versioned node. */
const described = (version: number): INodeTypeDescription => paykit.getNodeType(version).description

/** A saved node's parameters as n8n reads them (defaults of its version filled in). */
const parametersOf = (node: INode, description: INodeTypeDescription) =>
  NodeHelpers.getNodeParameters(
    description.properties,
    node.parameters,
    true,
    false,
    node,
    description,
  ) ?? {}

/** The names of the outputs n8n draws for a saved node. */
const outputNames = (node: INode): ReadonlyArray<string> =>
  outputsDrawn(node).map((o) => (typeof o === 'string' ? o : (o.displayName ?? o.type)))

describe('the versions the suite covers', () => {
  it('every type version the Paykit node declares has saved workflows; a new node gets the newest', () => {
    expect(versionsOf(paykit)).toEqual([1, 1.1])
    expect(savedVersions()).toEqual(versionsOf(paykit))
    expect(paykit.description.defaultVersion).toBe(Math.max(...versionsOf(paykit)))
  })

  it('the Paykit Trigger declares version 1 only, which its saved workflows use', () => {
    expect(new dist.trigger.PaykitTrigger().description.version).toBe(1)
    for (const name of ['trigger-signed', 'trigger-unsigned'])
      expect(saved(1, name).nodes[0]?.typeVersion).toBe(1)
  })
})

describe('the outputs a saved node shows in the editor', () => {
  const cases: ReadonlyArray<readonly [number, string, string, ReadonlyArray<string>]> = [
    [1, 'charge-create', 'Charge', ['main']],
    [1, 'charge-complete-after-3ds', 'Complete Charge', ['main']],
    [1, 'charge-create-by-status', 'Charge', ['Succeeded', 'Authentication Required', 'Failed']],
    [1, 'payment-link-create-default', 'Create Payment Link', ['main']],
    [1, 'payment-link-create-switched', 'Create Payment Link', ['Created', 'Already Requested']],
    [1.1, 'charge-create', 'Charge', ['Succeeded', 'Authentication Required', 'Failed']],
    [1.1, 'payment-link-create-default', 'Create Payment Link', ['Created', 'Already Requested']],
    [1.1, 'payment-link-create-switched', 'Create Payment Link', ['main']],
  ]
  it.each(cases)('version %s, %s: %s shows %j', (version, file, name, outputs) => {
    const workflow = saved(version, file)
    const node = workflow.nodes.find((n) => n.name === name) as INode
    expect(outputNames(node)).toEqual(outputs)
    // Each output it shows is the one the saved workflow wired.
    expect(workflow.connections[name]?.main).toHaveLength(outputs.length)
  })
})

describe('Order Event → Accept Once needs no credential', () => {
  const credential = (version: number) => {
    const found = described(version).credentials?.find((c) => c.name === 'paykitApi')
    if (found === undefined) throw new Error('no paykitApi credential')
    return found
  }
  const shown = (version: number, parameters: Record<string, string>) => {
    const node = {
      id: '1',
      name: 'Paykit',
      type: 'n8n-nodes-paykit.paykit',
      typeVersion: version,
      position: [0, 0],
      parameters,
    } as INode
    return NodeHelpers.displayParameter(
      parametersOf(node, described(version)),
      credential(version),
      node,
      described(version),
    )
  }
  it.each([1, 1.1])(
    'version %s: the Paykit API credential is not shown for Accept Once, and shown for every other operation',
    (version) => {
      expect(shown(version, { resource: 'orderEvent' })).toBe(false)
      for (const resource of ['paymentLink', 'paymentMethod', 'charge'])
        expect(shown(version, { resource })).toBe(true)
    },
  )
})

describe('the editor text of Payment Method → Create and Accept Once', () => {
  const properties = described(1.1).properties
  it('Payment Method → Create has a notice on where card data may come from safely', () => {
    const notices = properties.filter(
      (p) => p.type === 'notice' && p.displayOptions?.show?.resource?.includes('paymentMethod'),
    )
    const text = notices.map((p) => p.displayName).join(' ')
    expect(text).toMatch(/vault/i)
    expect(text).toMatch(/Webhook or Form trigger/)
  })

  it("Accept Once's Event ID names the field id, and $json.body.id behind a plain Webhook node", () => {
    const eventId = properties.find((p) => p.name === 'eventId')
    const help = `${String(eventId?.description)} ${String(eventId?.hint)}`
    expect(help).toContain('`id`')
    expect(help).not.toContain('`ID`')
    expect(help).toContain('{{ $json.id }} after the Paykit Trigger')
    expect(help).toContain('behind a plain Webhook node')
    expect(help).toContain('{{ $json.body.id }}')
  })
})
