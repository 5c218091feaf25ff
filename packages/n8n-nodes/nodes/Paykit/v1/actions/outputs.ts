/**
 * The Paykit node's outputs: one main output, unless the operation's file declares its own
 * (`outputs`, beside its `description`): a charge one per outcome, a link creation with One
 * Link per Order Reference Created and Already Requested.
 */
import type { Resource } from './Action'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

/**
 * The description's `outputs`: an expression n8n evaluates over the node's parameters. It
 * holds the text of each operation's `outputs` (they stand alone), chosen by resource and
 * operation, and one main output for every other operation.
 */
export const outputsExpression = (resources: ReadonlyArray<Resource>): `={{${string}}}` => {
  const declared = resources.flatMap((r) =>
    Object.entries(r.actions).flatMap(([name, a]) =>
      a.outputs === undefined
        ? []
        : [
            `parameters.resource === ${JSON.stringify(r.option.value)} && parameters.operation === ${JSON.stringify(name)} ? (${a.outputs.toString()})(parameters) : `,
          ],
    ),
  )
  return `={{((parameters) => (${declared.join('')}null) || [{ type: "main" }])($parameter)}}`
}
