import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeTypeBaseDescription,
  INodeTypeDescription,
} from 'n8n-workflow'
import { router } from './actions/router'
import { versionDescription } from './actions/versionDescription'

/**
 * The `Paykit` node, version 1: payment links, order reads and waits, cards and charges
 * with 3DS, order events accepted once, over the core's client (validation, decoding,
 * typed errors, safe retries) with n8n's request helpers and the `Paykit API` credential.
 *
 * An `INodeType` where the versioned node takes it (`Paykit.node.ts`), as n8n's Airtable
 * v2 is: its name and icon are the base description's. It does not say
 * `implements INodeType`, since n8n's community lint then looks for an icon path relative
 * to this folder, whereas n8n resolves the icon of every version against the folder of
 * the entry file.
 */
export class PaykitV1 {
  description: INodeTypeDescription

  constructor(baseDescription: INodeTypeBaseDescription) {
    this.description = { ...baseDescription, ...versionDescription }
  }

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await router.call(this)
  }
}
