/**
 * A tiny credential type and node types of the kind a community-node author writes, for
 * the harness tests: a credential whose hidden expirable `accessToken` comes from the
 * sandbox's `POST /token`, a node reading a payment-link order through
 * `httpRequestWithAuthentication`, a webhook trigger and nodes that count or refuse.
 */
import type {
  ICredentialType,
  IDataObject,
  IExecuteFunctions,
  IHttpRequestHelper,
  INodeExecutionData,
  INodeType,
  IWebhookFunctions,
  IWebhookResponseData,
} from 'n8n-workflow'
import { fileURLToPath } from 'node:url'
import { startSandbox, type Sandbox } from '../../src/sandbox/startSandbox.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import type { CredentialStore } from '../../src/n8n/index.js'

/** Where n8n-nodes-base is installed in this repository (the n8n-nodes package). */
export const BASE_NODES_FROM = fileURLToPath(new URL('../../../n8n-nodes/', import.meta.url))

/** Type name of the test credential. */
export const CREDENTIAL = 'paykitTestApi'

/** The credential type: `preAuthentication` fetches a token, `authenticate` sends it. */
export const paykitTestApi: ICredentialType = {
  name: CREDENTIAL,
  displayName: 'Paykit Test API',
  properties: [
    { displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
    { displayName: 'Client ID', name: 'clientId', type: 'string', default: '' },
    {
      displayName: 'Client Secret',
      name: 'clientSecret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
    },
    {
      displayName: 'Access Token',
      name: 'accessToken',
      type: 'hidden',
      typeOptions: { expirable: true },
      default: '',
    },
  ],
  async preAuthentication(this: IHttpRequestHelper, credentials) {
    const answer = (await this.helpers.httpRequest({
      method: 'POST',
      url: `${String(credentials['baseUrl'])}/token`,
      body: { clientId: credentials['clientId'], clientSecret: credentials['clientSecret'] },
      json: true,
    })) as { accessToken: string }
    return { accessToken: answer.accessToken }
  },
  authenticate: {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
  },
}

/** The credential store with one sandbox credential, id `cred-1`, no token yet. */
export const storeFor = (sandbox: Sandbox): CredentialStore => ({
  'cred-1': {
    type: CREDENTIAL,
    name: 'Sandbox',
    data: {
      baseUrl: sandbox.url,
      clientId: defaultCredentials.clientId,
      clientSecret: defaultCredentials.clientSecret,
    },
  },
})

/** How workflow nodes reference the credential. */
export const nodeCredentials = { [CREDENTIAL]: { id: 'cred-1', name: 'Sandbox' } }

/** A node that reads `GET /paymentlink/order/{orderCode}` per item, as a tool too. */
export const getOrderNode: INodeType = {
  description: {
    displayName: 'Paykit Test',
    name: 'paykitTest',
    group: ['transform'],
    version: 1,
    description: 'Reads a payment-link order',
    defaults: { name: 'Paykit Test' },
    inputs: ['main'],
    outputs: ['main'],
    usableAsTool: true,
    credentials: [{ name: CREDENTIAL, required: true }],
    properties: [
      { displayName: 'Order Code', name: 'orderCode', type: 'string', default: '', required: true },
    ],
  },
  async execute(this: IExecuteFunctions): Promise<Array<Array<INodeExecutionData>>> {
    const credentials = await this.getCredentials(CREDENTIAL)
    const items = this.getInputData()
    const out: Array<INodeExecutionData> = []
    for (let item = 0; item < items.length; item++) {
      try {
        const code = this.getNodeParameter('orderCode', item) as string
        const order = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
          method: 'GET',
          url: `${String(credentials['baseUrl'])}/paymentlink/order/${encodeURIComponent(code)}`,
          json: true,
        })) as IDataObject
        out.push({ json: order, pairedItem: { item } })
      } catch (error) {
        if (!this.continueOnFail()) throw error
        out.push({ json: { error: (error as Error).message }, pairedItem: { item } })
      }
    }
    return [out]
  },
}

/** A pass-through node that calls `onRun` first (to move the sandbox clock mid-run). */
export const hookNode = (onRun: () => void): INodeType => ({
  description: {
    displayName: 'Hook',
    name: 'hook',
    group: ['transform'],
    version: 1,
    description: 'Runs a callback',
    defaults: { name: 'Hook' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [],
  },
  async execute(this: IExecuteFunctions) {
    onRun()
    return [this.getInputData()]
  },
})

/** A node that refuses to run as an AI-agent tool. */
export const refusesAsToolNode: INodeType = {
  description: {
    displayName: 'Refuses As Tool',
    name: 'refusesAsTool',
    group: ['transform'],
    version: 1,
    description: 'Charges a card; never on an agent’s say-so',
    defaults: { name: 'Refuses As Tool' },
    inputs: ['main'],
    outputs: ['main'],
    usableAsTool: true,
    properties: [],
  },
  async execute(this: IExecuteFunctions) {
    if (this.isToolExecution()) throw new Error('This node cannot run as an AI tool.')
    return [
      this.getInputData().map((item, index) => ({
        json: { ...item.json, charged: true },
        pairedItem: { item: index },
      })),
    ]
  },
}

/** A webhook trigger: 401 through the response object without the header, else the body. */
export const webhookTriggerNode: INodeType = {
  description: {
    displayName: 'Paykit Test Trigger',
    name: 'paykitTestTrigger',
    group: ['trigger'],
    version: 1,
    description: 'Receives order events',
    defaults: { name: 'Paykit Test Trigger' },
    inputs: [],
    outputs: ['main'],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'paykit' }],
    properties: [
      { displayName: 'Header', name: 'header', type: 'string', default: 'x-paykit-key' },
    ],
  },
  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const header = this.getNodeParameter('header') as string
    if (this.getHeaderData()[header] === undefined) {
      this.getResponseObject()
        .status(401)
        .json({ error: `missing ${header}` })
      return { noWebhookResponse: true }
    }
    const raw = (this.getRequestObject() as unknown as { rawBody: Buffer }).rawBody
    this.getWorkflowStaticData('node')['lastEvent'] = this.getBodyData()['id']
    return {
      workflowData: [
        this.helpers.returnJsonArray({
          ...this.getBodyData(),
          rawLength: raw.length,
          webhook: this.getWebhookName(),
          url: this.getNodeWebhookUrl('default') ?? null,
        }),
      ],
    }
  },
}

/** A sandbox with control endpoints, and one payment link in it. */
export const sandboxWithLink = async (): Promise<{
  readonly sandbox: Sandbox
  readonly orderCode: string
}> => {
  const sandbox = await startSandbox({ control: true, expirySweepMs: 0 })
  const res = await fetch(`${sandbox.url}/paymentlink/checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${defaultCredentials.apiKey}`,
    },
    body: JSON.stringify({ amount: 42.5, orderReference: 'ref-1' }),
  })
  const { orderCode } = (await res.json()) as { orderCode: string }
  return { sandbox, orderCode }
}

/** How many `POST /token` the sandbox received. */
export const tokenRequests = (sandbox: Sandbox): number =>
  sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/token').length
