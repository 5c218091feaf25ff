/**
 * An in-memory credentials helper that behaves as n8n's own (packages/cli
 * `CredentialsHelper`): credential data with defaults applied, expressions in it resolved,
 * `preAuthentication` run when the expirable field is empty or the engine says the
 * credential expired (and its output saved), generic `authenticate` resolved against
 * `$credentials` by the real expression engine.
 *
 * @since 0.2.0
 */
import type {
  ICredentialDataDecryptedObject,
  ICredentials,
  ICredentialsExpressionResolveValues,
  ICredentialsHelper,
  ICredentialType,
  IExecuteData,
  IHttpRequestHelper,
  IHttpRequestOptions,
  INode,
  INodeCredentialsDetails,
  INodeParameters,
  INodeProperties,
  INodeType,
  IRequestOptionsSimplified,
  IWorkflowDataProxyAdditionalKeys,
  IWorkflowExecuteAdditionalData,
  Workflow,
  WorkflowExecuteMode,
} from 'n8n-workflow'
import { loadN8n } from './Runtime.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One stored credential: its type name, display name and (decrypted) data.
 *
 * @category model
 * @since 0.2.0
 */
export interface StoredCredential {
  readonly type: string
  readonly name: string
  readonly data: ICredentialDataDecryptedObject
}

/**
 * Stored credentials by id; workflow nodes reference them as
 * `credentials: { <type>: { id, name } }`.
 *
 * @category model
 * @since 0.2.0
 */
export type CredentialStore = Readonly<Record<string, StoredCredential>>

/**
 * One call the engine made to `preAuthentication` (before every authenticated request,
 * and again with `expired: true` after a 401). `ran` tells whether the credential type's
 * own `preAuthentication` ran (the expirable field was empty, or `expired` was true).
 *
 * @category model
 * @since 0.2.0
 */
export interface PreAuthenticationCall {
  readonly credentialType: string
  readonly credentialId: string | null
  readonly node: string
  readonly expired: boolean
  readonly ran: boolean
}

/**
 * Options of {@link TestCredentialsHelper}.
 *
 * @category model
 * @since 0.2.0
 */
export interface TestCredentialsHelperOptions {
  readonly credentialTypes?: ReadonlyArray<ICredentialType>
  readonly credentials?: CredentialStore
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const OAUTH_TYPES: ReadonlyArray<string> = ['oAuth1Api', 'oAuth2Api']

const copy = <A>(a: A): A => structuredClone(a)

/** A one-node workflow to evaluate credential expressions outside a run, as n8n does. */
const throwawayWorkflow = (): { readonly workflow: Workflow; readonly node: INode } => {
  const { workflow: nw } = loadN8n()
  const node: INode = {
    id: 'credentials',
    name: '',
    typeVersion: 1,
    type: 'mock',
    position: [0, 0],
    parameters: {},
  }
  const mock = { description: { properties: [] } } as unknown as INodeType
  const workflow = new nw.Workflow({
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes: {
      getByName: () => mock,
      getByNameAndVersion: () => mock,
      getKnownTypes: () => ({}),
    },
  })
  return { workflow, node }
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * n8n's `ICredentialsHelper` over an in-memory store. Read the store after a run with
 * {@link TestCredentialsHelper.snapshot}, and what the engine asked of `preAuthentication`
 * with {@link TestCredentialsHelper.preAuthentications}.
 *
 * @example
 * ```ts
 * import { TestCredentialsHelper } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * const store = { 'cred-1': { type: 'demoApi', name: 'Demo', data: { apiKey: 'test-key' } } }
 * // Pass it as runWorkflow's `credentialsHelper`, then read the store after the run.
 * const helper = new TestCredentialsHelper({
 *   credentialTypes: [
 *     {
 *       name: 'demoApi',
 *       displayName: 'Demo API',
 *       properties: [{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' }],
 *     },
 *   ],
 *   credentials: store,
 * })
 * assert.deepEqual(helper.snapshot(), store) // a copy: a run never changes `store`
 * assert.deepEqual(helper.getCredentialsProperties('demoApi').map((p) => p.name), ['apiKey'])
 * assert.deepEqual(helper.preAuthentications(), [])
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export class TestCredentialsHelper implements ICredentialsHelper {
  private readonly types: ReadonlyMap<string, ICredentialType>
  private readonly store: Map<string, StoredCredential>
  private readonly calls: Array<PreAuthenticationCall> = []

  constructor(options: TestCredentialsHelperOptions = {}) {
    this.types = new Map((options.credentialTypes ?? []).map((type) => [type.name, type]))
    this.store = new Map(
      Object.entries(options.credentials ?? {}).map(([id, stored]) => [id, copy(stored)]),
    )
  }

  /** The store now (a copy). */
  snapshot(): CredentialStore {
    return Object.fromEntries([...this.store].map(([id, stored]) => [id, copy(stored)]))
  }

  /** Every `preAuthentication` call so far, in order. */
  preAuthentications(): ReadonlyArray<PreAuthenticationCall> {
    return [...this.calls]
  }

  private typeOf(name: string): ICredentialType {
    const type = this.types.get(name)
    if (type === undefined) throw new (loadN8n().core.UnrecognizedCredentialTypeError)(name)
    return type
  }

  private find(
    nodeCredentials: INodeCredentialsDetails,
    type: string,
  ): readonly [string, StoredCredential] {
    const byId = nodeCredentials.id === null ? undefined : this.store.get(nodeCredentials.id)
    const found =
      byId !== undefined && nodeCredentials.id !== null
        ? ([nodeCredentials.id, byId] as const)
        : [...this.store].find(([, s]) => s.type === type && s.name === nodeCredentials.name)
    if (found === undefined || found[1].type !== type)
      throw new Error(
        `Credential with ID "${nodeCredentials.id ?? nodeCredentials.name}" does not exist for type "${type}".`,
      )
    return found
  }

  /** The type names a credential type extends, transitively (`extends`). */
  getParentTypes(name: string): Array<string> {
    const type = this.types.get(name)
    if (type?.extends === undefined) return []
    return type.extends.flatMap((parent) => [parent, ...this.getParentTypes(parent)])
  }

  /** False only for a type with `restrictToSupportedNodes` that does not list the node. */
  isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
    const type = this.types.get(credentialType)
    if (type?.restrictToSupportedNodes !== true) return true
    return type.supportedNodes?.includes(nodeType) ?? false
  }

  /** The type's properties, merged over those of the types it extends. */
  getCredentialsProperties(type: string): Array<INodeProperties> {
    const { NodeHelpers } = loadN8n().workflow
    const credentialType = this.typeOf(type)
    if (credentialType.extends === undefined) {
      if (OAUTH_TYPES.includes(type))
        return [
          ...credentialType.properties,
          {
            displayName: 'oauthTokenData',
            name: 'oauthTokenData',
            type: 'json',
            required: false,
            default: {},
          },
        ]
      return credentialType.properties
    }
    const combined: Array<INodeProperties> = []
    for (const parent of credentialType.extends)
      if (this.types.has(parent))
        NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent))
    NodeHelpers.mergeNodeProperties(combined, credentialType.properties)
    return combined
  }

  /** The stored credential as n8n-core's `Credentials` (data encrypted with the instance key). */
  async getCredentials(
    nodeCredentials: INodeCredentialsDetails,
    type: string,
  ): Promise<ICredentials> {
    const [, stored] = this.find(nodeCredentials, type)
    const credentials = new (loadN8n().core.Credentials)(nodeCredentials, type)
    await credentials.setData(copy(stored.data))
    return credentials
  }

  /**
   * The stored data (a fresh copy on each call); unless `raw`, with the type's defaults
   * applied and expressions in it resolved, as n8n does.
   */
  async getDecrypted(
    additionalData: IWorkflowExecuteAdditionalData,
    nodeCredentials: INodeCredentialsDetails,
    type: string,
    mode: WorkflowExecuteMode,
    executeData?: IExecuteData,
    raw?: boolean,
    expressionResolveValues?: ICredentialsExpressionResolveValues,
  ): Promise<ICredentialDataDecryptedObject> {
    const { core, workflow: nw } = loadN8n()
    const [, stored] = this.find(nodeCredentials, type)
    const data = copy(stored.data)
    if (raw === true) return data
    const withDefaults = (nw.NodeHelpers.getNodeParameters(
      this.getCredentialsProperties(type),
      data as INodeParameters,
      true,
      false,
      null,
      null,
    ) ?? {}) as ICredentialDataDecryptedObject
    if (data['oauthTokenData'] !== undefined)
      withDefaults['oauthTokenData'] = data['oauthTokenData']
    const additionalKeys = core.getAdditionalKeys(additionalData, mode, null, {
      isCredential: true,
    })
    if (expressionResolveValues !== undefined) {
      const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
        expressionResolveValues
      return await workflow.expression.withIsolate(
        async () =>
          workflow.expression.getParameterValue(
            withDefaults as INodeParameters,
            runExecutionData,
            runIndex,
            itemIndex,
            node.name,
            connectionInputData,
            mode,
            additionalKeys,
            executeData,
            false,
            withDefaults,
          ) as ICredentialDataDecryptedObject,
      )
    }
    const { workflow, node } = throwawayWorkflow()
    return await workflow.expression.withIsolate(
      async () =>
        workflow.expression.getComplexParameterValue(
          node,
          withDefaults as INodeParameters,
          mode,
          additionalKeys,
          undefined,
          undefined,
          withDefaults,
        ) as ICredentialDataDecryptedObject,
    )
  }

  /** Replaces the stored data. */
  async updateCredentials(
    nodeCredentials: INodeCredentialsDetails,
    type: string,
    data: ICredentialDataDecryptedObject,
  ): Promise<void> {
    const [id, stored] = this.find(nodeCredentials, type)
    this.store.set(id, { ...stored, data: copy(data) })
    return Promise.resolve()
  }

  /** Stores `data.oauthTokenData` into the stored data. */
  async updateCredentialsOauthTokenData(
    nodeCredentials: INodeCredentialsDetails,
    type: string,
    data: ICredentialDataDecryptedObject,
  ): Promise<void> {
    const [id, stored] = this.find(nodeCredentials, type)
    const token = data['oauthTokenData']
    this.store.set(id, {
      ...stored,
      data: {
        ...copy(stored.data),
        ...(token === undefined ? {} : { oauthTokenData: copy(token) }),
      },
    })
    return Promise.resolve()
  }

  /**
   * As n8n's: finds the type's hidden `expirable` property; when the type has a
   * `preAuthentication` function and that property is empty (or `credentialsExpired`),
   * calls it with `helpers` as `this`; when its output holds the expirable property, saves
   * the merged data and returns it. Otherwise undefined.
   */
  async preAuthentication(
    helpers: IHttpRequestHelper,
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
    node: INode,
    credentialsExpired: boolean,
  ): Promise<ICredentialDataDecryptedObject | undefined> {
    const credentialType = this.typeOf(typeName)
    const expirable = credentialType.properties.find(
      (p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
    )
    const nodeCredentials = node.credentials?.[credentialType.name]
    const record = (ran: boolean): void => {
      this.calls.push({
        credentialType: typeName,
        credentialId: nodeCredentials?.id ?? null,
        node: node.name,
        expired: credentialsExpired,
        ran,
      })
    }
    if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') {
      record(false)
      return undefined
    }
    // n8n's credential test runs on a NoOp node with `temp: ''`.
    const testing = node.parameters?.['temp'] === '' && node.type === 'n8n-nodes-base.noOp'
    if (credentials[expirable.name] !== '' && !credentialsExpired && !testing) {
      record(false)
      return undefined
    }
    record(true)
    const output = await credentialType.preAuthentication.call(helpers, credentials)
    if (output[expirable.name] === undefined) return undefined
    if (nodeCredentials === undefined) return undefined
    const merged = Object.assign(credentials, output) as ICredentialDataDecryptedObject
    await this.updateCredentials(nodeCredentials, credentialType.name, merged)
    return merged
  }

  /** Runs the type's `preAuthentication` unconditionally (n8n's OAuth paths call this). */
  async runPreAuthentication(
    helpers: IHttpRequestHelper,
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
  ): Promise<ICredentialDataDecryptedObject | undefined> {
    const credentialType = this.typeOf(typeName)
    if (typeof credentialType.preAuthentication !== 'function') return undefined
    return (await credentialType.preAuthentication.call(
      helpers,
      credentials,
    )) as ICredentialDataDecryptedObject
  }

  /**
   * Applies the type's `authenticate`: a function is called; a `generic` one has each of
   * its `properties` (`headers`, `qs`, `body`, `auth`) merged into the request, keys and
   * values that start with `=` resolved as n8n expressions with `$credentials` bound (by
   * the engine's `getSimpleParameterValue`, in the run's workflow when given).
   */
  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
    requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
    workflow?: Workflow,
    node?: INode,
  ): Promise<IHttpRequestOptions> {
    const credentialType = this.typeOf(typeName)
    const { authenticate } = credentialType
    if (typeof authenticate === 'function')
      return await authenticate(credentials, requestOptions as IHttpRequestOptions)
    if (typeof authenticate !== 'object' || authenticate.type !== 'generic')
      return requestOptions as IHttpRequestOptions
    const context = workflow !== undefined && node !== undefined ? { workflow, node } : undefined
    const { workflow: wf, node: n } = context ?? throwawayWorkflow()
    const keys: IWorkflowDataProxyAdditionalKeys = { $credentials: credentials }
    const resolve = (value: unknown): unknown => {
      if (typeof value !== 'string' || !value.startsWith('=')) return value
      const resolved = wf.expression.getSimpleParameterValue(
        n,
        value,
        'internal',
        keys,
        undefined,
        '',
      )
      // n8n's `resolveValue`: a falsy result becomes '', anything else its string.
      return resolved ? String(resolved as string) : ''
    }
    const options = requestOptions as unknown as Record<string, Record<string, unknown>>
    options['headers'] ??= {}
    await wf.expression.withIsolate(async () => {
      for (const [outer, inner] of Object.entries(authenticate.properties as object))
        for (const [key, value] of Object.entries(inner as Record<string, unknown>)) {
          const target = (options[outer] ??= {})
          target[String(resolve(key))] = resolve(value)
        }
    })
    return requestOptions as IHttpRequestOptions
  }
}
