/**
 * The description of the Paykit node's version 1 beside its base description (name, icon,
 * group: `Paykit.node.ts`): its outputs, credential and its resources' lists and fields.
 */
import type { INodeTypeDescription } from 'n8n-workflow'
import { NodeConnectionTypes } from 'n8n-workflow'
import { configuredOutputs } from './outputs'
import { RESOURCES } from './resources'

const resources = Object.values(RESOURCES)

/**
 * Versions 1 and 1.1 of the Paykit node, without what its base description gives. They
 * differ only in a default: 1.1 (new nodes) creates one link per order reference.
 */
export const versionDescription: Omit<
  INodeTypeDescription,
  'displayName' | 'name' | 'icon' | 'group' | 'description'
> = {
  version: [1, 1.1],
  subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
  defaults: { name: 'Paykit' },
  usableAsTool: true,
  inputs: [NodeConnectionTypes.Main],
  outputs: `={{(${configuredOutputs.toString()})($parameter)}}`,
  credentials: [{ name: 'paykitApi', required: true }],
  properties: [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      options: resources.map((r) => r.option).sort((a, b) => a.name.localeCompare(b.name)),
      default: 'paymentLink',
    },
    ...resources.map((r) => r.operations),
    ...resources.flatMap((r) => r.properties),
  ],
}
