import type { INodeType, INodeTypeBaseDescription } from 'n8n-workflow'
import { VersionedNodeType } from 'n8n-workflow'
import { PaykitV1 } from './v1/PaykitV1.node'

/**
 * The `Paykit` node (`n8n-nodes-paykit.paykit`), one class over its versions as n8n's own
 * nodes are: a saved workflow keeps the version it was made with, a new node gets the
 * default one. Versions 1 and 1.1: `v1/PaykitV1.node.ts`, its operations in
 * `v1/actions/<resource>/`; 1.1 differs only in defaults (One Link per Order Reference on,
 * a charge's output per outcome), version 1 keeps its own.
 */
export class Paykit extends VersionedNodeType {
  constructor() {
    const baseDescription: INodeTypeBaseDescription = {
      displayName: 'Paykit',
      name: 'paykit',
      icon: { light: 'file:../../icons/paykit.svg', dark: 'file:../../icons/paykit.dark.svg' },
      group: ['transform'],
      description:
        'Create payment links, read orders, register cards, charge them with 3DS, accept order events once',
      defaultVersion: 1.1,
    }
    const v1: INodeType = new PaykitV1(baseDescription)
    super({ 1: v1, 1.1: v1 }, baseDescription)
  }
}
