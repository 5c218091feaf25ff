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
 * What the expression does with the declared outputs (the rule of `outputsShown`): the
 * entry of the node's resource and operation, its names when its field's value matches,
 * else one main output. Written as text, not as a function's source: what a bundler or a
 * coverage tool makes of a function is not what n8n's expression engine can run.
 */
const CHOOSE = `((declared, parameters) => {
  const d = declared.find((o) => o.resource === parameters.resource && o.operation === parameters.operation);
  const shown = d !== undefined && ("is" in d ? parameters[d.field] === d.is : parameters[d.field] !== d.isNot);
  return shown ? d.names.map((displayName) => ({ type: "main", displayName })) : [{ type: "main" }];
})`

/**
 * The description's `outputs`: an expression n8n evaluates over the node's parameters, each
 * operation's declared `outputs` in it as JSON (flat objects: no `}}` to end it early).
 */
export const outputsExpression = (resources: ReadonlyArray<Resource>): `={{${string}}}` => {
  const declared = resources.flatMap((r) =>
    Object.entries(r.actions).flatMap(([operation, a]) =>
      a.outputs === undefined ? [] : [{ resource: r.option.value, operation, ...a.outputs }],
    ),
  )
  return `={{${CHOOSE}(${JSON.stringify(declared)}, $parameter)}}`
}
