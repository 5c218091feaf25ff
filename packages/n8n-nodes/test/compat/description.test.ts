/**
 * The descriptions n8n reads from the BUILT nodes, per type version, held against what they
 * were (`fixtures/descriptions/`): a refactoring of the node's files changes none of a saved
 * node's fields, defaults, display conditions, credentials or outputs. The outputs are
 * compared as n8n draws them (its expression evaluated by n8n for each operation and each
 * value of the fields they depend on), not as the text of that expression.
 */
import { readFileSync } from 'node:fs'
import type { INodeTypeDescription, INodeParameters } from 'n8n-workflow'
import { describe, expect, it } from 'vitest'
import { dist, PAYKIT } from '../support.js'
import { outputsDrawn } from './support.js'

const paykit = new dist.node.Paykit()

/** The values of a field an output list depends on: unset (the version's default) and each. */
const OUTPUT_FIELDS: Readonly<Record<string, ReadonlyArray<string | boolean | undefined>>> = {
  chargeOutputs: [undefined, 'byStatus', 'single'],
  oneLinkPerReference: [undefined, true, false],
}

/** Every combination of the output fields' values, as saved parameters (unset left out). */
const outputFieldCombinations = (): ReadonlyArray<INodeParameters> =>
  Object.entries(OUTPUT_FIELDS).reduce<ReadonlyArray<INodeParameters>>(
    (combinations, [name, values]) =>
      combinations.flatMap((c) => values.map((v) => (v === undefined ? c : { ...c, [name]: v }))),
    [{}],
  )

/** The outputs n8n draws for a node of `version` saved with `parameters`. */
const outputsOf = (version: number, parameters: INodeParameters) =>
  outputsDrawn({
    id: '1',
    name: 'Paykit',
    type: PAYKIT,
    typeVersion: version,
    position: [0, 0],
    parameters,
  })

/** The options of the description's field `name` shown for `resource` (any when undefined). */
const optionValues = (
  description: INodeTypeDescription,
  name: string,
  resource?: string,
): ReadonlyArray<string> =>
  description.properties
    .filter(
      (p) =>
        p.name === name &&
        (resource === undefined ||
          (p.displayOptions?.show?.resource as ReadonlyArray<string> | undefined)?.includes(
            resource,
          )),
    )
    .flatMap((p) => (p.options ?? []).map((o) => String((o as { value: unknown }).value)))

/**
 * The description of `version` as plain data, its outputs as n8n draws them for every
 * operation and every combination of the fields they depend on.
 */
const describedAsData = (version: number) => {
  const description = paykit.getNodeType(version).description
  // A new node's resource and operation are left out of what n8n saves: `{}` stands for them.
  const operations: ReadonlyArray<INodeParameters> = [
    {},
    ...optionValues(description, 'resource').flatMap((resource) =>
      optionValues(description, 'operation', resource).map((operation) => ({
        resource,
        operation,
      })),
    ),
  ]
  const outputs = operations.flatMap((operation) =>
    outputFieldCombinations().map((fields) => ({
      parameters: { ...operation, ...fields },
      outputs: outputsOf(version, { ...operation, ...fields }),
    })),
  )
  return JSON.parse(JSON.stringify({ ...description, outputs })) as unknown
}

/** A description as it was recorded (`fixtures/descriptions/<name>.json`). */
const recorded = (name: string): unknown =>
  JSON.parse(
    readFileSync(new URL(`./fixtures/descriptions/${name}.json`, import.meta.url), 'utf8'),
  ) as unknown

describe('the descriptions n8n reads, per type version', () => {
  it.each([1, 1.1])('Paykit, version %s: as it was', (version) => {
    expect(describedAsData(version)).toEqual(recorded(`paykit-v${String(version)}`))
  })

  it('Paykit Trigger, version 1: as it was', () => {
    const description = new dist.trigger.PaykitTrigger().description
    expect(JSON.parse(JSON.stringify(description))).toEqual(recorded('paykit-trigger-v1'))
  })

  it('every operation of every version is in the comparison, and some have several outputs', () => {
    for (const version of [1, 1.1]) {
      const { outputs } = describedAsData(version) as {
        outputs: ReadonlyArray<{ outputs: ReadonlyArray<unknown> }>
      }
      // The default one and 7 operations over 4 resources, 9 combinations of the output fields each.
      expect(outputs).toHaveLength((1 + 7) * 9)
      expect(outputs.some((o) => o.outputs.length === 3)).toBe(true)
      expect(outputs.some((o) => o.outputs.length === 2)).toBe(true)
    }
  })
})
