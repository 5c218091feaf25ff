/**
 * The description of the Paykit node's version 1 beside its base description (name, icon,
 * group: `Paykit.node.ts`): its outputs, credential and its resources' lists and fields.
 */
import type { INodeTypeDescription } from 'n8n-workflow'
import { NodeConnectionTypes } from 'n8n-workflow'
import { outputsExpression } from './outputs'
import { RESOURCES } from './resources'

const resources = Object.values(RESOURCES)

/**
 * Versions 1 and 1.1 of the Paykit node, without what its base description gives. They
 * differ only in defaults: 1.1 (new nodes) creates one link per order reference and gives
 * a charge an output per outcome; 1 keeps what it had (the package README's Upgrading).
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
  outputs: outputsExpression(resources),
  // Accept Once never calls Paykit: the credential is not asked for there. A saved node that
  // carries it keeps it, unused.
  credentials: [
    { name: 'paykitApi', required: true, displayOptions: { hide: { resource: ['orderEvent'] } } },
  ],
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
