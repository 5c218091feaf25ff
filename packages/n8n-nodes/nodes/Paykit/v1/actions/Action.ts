/**
 * What an operation file of the node gives (`<resource>/<operation>.operation.ts`, as in
 * n8n's own Airtable v2 node), and the resource that groups them: its entry in the
 * Operation list, its fields, its flags (runs items side by side, safe as an AI tool), how
 * it runs, and, when it has more than one output, its outputs and how its items are routed
 * to them. The router, the tool guard, the node's outputs and the Options collection are
 * derived from these; nothing about an operation is written anywhere else.
 */
import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeProperties,
  INodePropertyOptions,
} from 'n8n-workflow'
import type { Operation } from '../helpers/items'
import { runOperation } from '../helpers/items'
import { requestOptions } from './options'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The `description` export of an operation file: its entry in the Operation list (its
 * `value` is the file's name), its fields (shown for this operation only: the resource
 * adds the display conditions) and the options its Options collection adds to the
 * request options.
 */
export interface OperationDescription {
  readonly option: Omit<INodePropertyOptions, 'value'> & { readonly action: string }
  readonly properties: ReadonlyArray<INodeProperties>
  readonly options?: ReadonlyArray<INodeProperties>
}

/**
 * An operation that takes the whole batch of input items at once (Order Event → Accept
 * Once), its own Options collection among its fields.
 */
export interface WholeBatch {
  readonly concurrent: false
  readonly toolSafe: boolean
  readonly runBatch: (ctx: IExecuteFunctions) => Promise<INodeExecutionData[]>
}

/**
 * The outputs of an operation that has more than one, as data: their names, shown when the
 * node's field `field` (its version's default filled in) `is` a value, or, with `isNot`,
 * whenever it is not that value; one main output otherwise. The description hands it to n8n
 * as JSON (`outputs.ts`), as n8n's Code node hands its connector types.
 */
export type Outputs = {
  readonly field: string
  readonly names: ReadonlyArray<string>
} & ({ readonly is: string | boolean } | { readonly isNot: string | boolean })

/** The items of an operation that declares `outputs`, on those outputs. */
export type Route = (ctx: IExecuteFunctions, items: INodeExecutionData[]) => INodeExecutionData[][]

/**
 * An operation file's exports: its `description`, its `operation`, and, when it has more
 * than one output, its `outputs` and `route`.
 */
export interface OperationModule<A> {
  readonly description: OperationDescription
  readonly operation: Operation<A> | WholeBatch
  readonly outputs?: Outputs
  readonly route?: Route
}

/** One operation, ready for the router. */
interface Action {
  readonly toolSafe: boolean
  readonly option: INodePropertyOptions
  readonly properties: ReadonlyArray<INodeProperties>
  readonly execute: (ctx: IExecuteFunctions) => Promise<INodeExecutionData[]>
  readonly outputs: Outputs | undefined
  readonly route: Route | undefined
}

/** A resource: its entry in the Resource list, its Operation list, its fields, its actions. */
export interface Resource {
  readonly option: INodePropertyOptions
  readonly operations: INodeProperties
  readonly properties: ReadonlyArray<INodeProperties>
  readonly actions: Readonly<Record<string, Action>>
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Whether an operation's `outputs` are shown when its field has the value `value`. */
export const outputsShown =
  (outputs: Outputs) =>
  (value: unknown): boolean =>
    'is' in outputs ? value === outputs.is : value !== outputs.isNot

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** An operation file's exports as an action: items prepared, then sent, by `runOperation`. */
export const action = <A>({
  description,
  operation,
  outputs,
  route,
}: OperationModule<A>): Omit<Action, 'option'> & {
  readonly option: OperationDescription['option']
} => ({
  option: description.option,
  outputs,
  route,
  toolSafe: operation.toolSafe,
  properties:
    'runBatch' in operation
      ? description.properties
      : [
          ...description.properties,
          requestOptions(operation.concurrent, description.options ?? []),
        ],
  execute:
    'runBatch' in operation
      ? (ctx) => operation.runBatch(ctx)
      : (ctx) => runOperation(ctx, operation),
})

/** Shows `property` only for `operation` of `resource`, beside its own display conditions. */
const shownFor = (resource: string, operation: string) => (property: INodeProperties) => ({
  ...property,
  displayOptions: {
    ...property.displayOptions,
    show: { ...property.displayOptions?.show, resource: [resource], operation: [operation] },
  },
})

/**
 * A resource from its operation files' actions, by operation name (the Operation list in
 * that order), and the operation a new node starts with.
 */
export const resource = (
  option: { readonly name: string; readonly value: string; readonly defaultOperation: string },
  actions: Readonly<Record<string, ReturnType<typeof action>>>,
): Resource => {
  const { defaultOperation } = option
  const entries = Object.entries(actions).map(([name, a]): [string, Action] => [
    name,
    {
      ...a,
      option: { ...a.option, value: name },
      properties: a.properties.map(shownFor(option.value, name)),
    },
  ])
  return {
    option: { name: option.name, value: option.value },
    operations: {
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [option.value] } },
      options: entries.map(([, a]) => a.option),
      default: defaultOperation,
    },
    properties: entries.flatMap(([, a]) => a.properties),
    actions: Object.fromEntries(entries),
  }
}
