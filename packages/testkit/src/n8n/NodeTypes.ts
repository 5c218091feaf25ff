/**
 * Node types for the harness: a registry over a plain map (n8n's `INodeTypes`), and
 * loading built-in nodes from the caller's `n8n-nodes-base` install, so that this package
 * has no dependency on it.
 *
 * @since 0.2.0
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow'
import { loadN8n } from './Runtime.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Node types by their type name as workflows reference them (`n8n-nodes-base.set`,
 * `n8n-nodes-paykit.paykit`): an `INodeType` or a versioned one.
 *
 * @category model
 * @since 0.2.0
 */
export type NodeTypeMap = Readonly<Record<string, INodeType | IVersionedNodeType>>

/**
 * Where to resolve `n8n-nodes-base` from: a directory (default `process.cwd()`).
 *
 * @category model
 * @since 0.2.0
 */
export interface BaseNodeTypeOptions {
  readonly from?: string
}

/**
 * The package prefix of built-in node type names.
 *
 * @example
 * ```ts
 * import { BASE_PACKAGE, baseNodeTypes } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(BASE_PACKAGE, 'n8n-nodes-base')
 * assert.deepEqual(Object.keys(baseNodeTypes(['NoOp'])), [`${BASE_PACKAGE}.noOp`])
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const BASE_PACKAGE = 'n8n-nodes-base'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * n8n's node-type registry over a map, as n8n's own `NodeTypes` behaves:
 * `getByNameAndVersion` picks the version of a versioned type (its default version when
 * none is given), and an unknown name throws n8n-core's `UnrecognizedNodeTypeError`.
 *
 * @example
 * ```ts
 * import { baseNodeTypes, nodeTypesOf } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * const registry = nodeTypesOf(baseNodeTypes(['Set'])) // n8n's INodeTypes
 * const set = registry.getByNameAndVersion('n8n-nodes-base.set', 3.4)
 * assert.equal(set.description.name, 'set')
 * assert.throws(() => registry.getByName('n8n-nodes-base.code'), /Unrecognized node type/)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const nodeTypesOf = (types: NodeTypeMap): INodeTypes => {
  const { core, workflow } = loadN8n()
  const get = (name: string): INodeType | IVersionedNodeType => {
    const type = types[name]
    if (type === undefined) {
      const [packageName = '', nodeName = name] = name.includes('.')
        ? [name.slice(0, name.lastIndexOf('.')), name.slice(name.lastIndexOf('.') + 1)]
        : ['', name]
      throw new core.UnrecognizedNodeTypeError(packageName, nodeName)
    }
    return type
  }
  return {
    getByName: get,
    getByNameAndVersion: (name, version) =>
      workflow.NodeHelpers.getVersionedNodeType(get(name), version),
    getKnownTypes: (): IDataObject => ({}),
  }
}

const nodePaths = (packageJson: string): ReadonlyArray<string> => {
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    n8n?: { nodes?: ReadonlyArray<string> }
  }
  return manifest.n8n?.nodes ?? []
}

/**
 * Loads one built-in node from `n8n-nodes-base`, resolved from `options.from` (default
 * `process.cwd()`): `name` is a node file's base name (`'Set'`, `'NoOp'`,
 * `'ManualTrigger'`, `'SplitOut'`) looked up in the package's `n8n.nodes` list, or a path
 * under the package (`'dist/nodes/Set/Set.node.js'`). Returns a new instance of the class
 * the file exports.
 *
 * @example
 * ```ts
 * import { baseNodeType } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // from the n8n-nodes-base installed under process.cwd() (or `{ from: directory }`)
 * const splitOut = baseNodeType('SplitOut')
 * assert.equal(splitOut.description.name, 'splitOut')
 * assert.throws(() => baseNodeType('NoSuchNode'), /has no node file NoSuchNode\.node\.js/)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const baseNodeType = (
  name: string,
  options: BaseNodeTypeOptions = {},
): INodeType | IVersionedNodeType => {
  const require = createRequire(join(options.from ?? process.cwd(), 'noop.js'))
  let packageJson: string
  try {
    packageJson = require.resolve(`${BASE_PACKAGE}/package.json`)
  } catch (cause) {
    throw new Error(
      `${BASE_PACKAGE} is not installed where it was looked for (${options.from ?? process.cwd()}).`,
      { cause },
    )
  }
  const root = dirname(packageJson)
  const relative = name.endsWith('.js')
    ? name
    : nodePaths(packageJson).find((path) => path.endsWith(`/${name}.node.js`))
  if (relative === undefined) throw new Error(`${BASE_PACKAGE} has no node file ${name}.node.js.`)
  const exported = require(join(root, relative)) as Record<string, unknown>
  const base = relative.slice(relative.lastIndexOf('/') + 1).replace(/\.node\.js$/, '')
  const NodeClass = exported[base] ?? Object.values(exported).find((v) => typeof v === 'function')
  if (typeof NodeClass !== 'function') throw new Error(`${relative} exports no node class.`)
  return new (NodeClass as new () => INodeType | IVersionedNodeType)()
}

/**
 * Loads several built-in nodes ({@link baseNodeType}) and keys them by type name as
 * workflows reference them: `baseNodeTypes(['Set', 'NoOp'])` gives
 * `{ 'n8n-nodes-base.set': ..., 'n8n-nodes-base.noOp': ... }`.
 *
 * @example
 * ```ts
 * import { baseNodeTypes } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * const nodeTypes = baseNodeTypes(['ManualTrigger', 'Set', 'NoOp']) // for runWorkflow
 * assert.deepEqual(Object.keys(nodeTypes), [
 *   'n8n-nodes-base.manualTrigger',
 *   'n8n-nodes-base.set',
 *   'n8n-nodes-base.noOp',
 * ])
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const baseNodeTypes = (
  names: ReadonlyArray<string>,
  options: BaseNodeTypeOptions = {},
): NodeTypeMap =>
  Object.fromEntries(
    names.map((name) => {
      const type = baseNodeType(name, options)
      return [`${BASE_PACKAGE}.${type.description.name}`, type]
    }),
  )
