// @paykit-test own-worker: n8n's engine in this process, vi.spyOn
import type { IExecuteFunctions, INodeType } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Sandbox } from '../../src/sandbox/startSandbox.js'
import {
  activeExpressionEngine,
  LOOPBACK_IP_RANGES,
  loadN8n,
  runWorkflow,
  useExpressionEngine,
} from '../../src/n8n/index.js'
import {
  getOrderNode,
  nodeCredentials,
  paykitTestApi,
  sandboxWithLink,
  storeFor,
} from './fixtures.js'

// Vitest runs each test file in its own process: n8n reads this once, at first use.
process.env['N8N_SSRF_PROTECTION_ENABLED'] = 'true'

/** A node that GETs `url` with n8n's plain `httpRequest` helper. */
const fetchNode: INodeType = {
  description: {
    displayName: 'Fetch',
    name: 'fetch',
    group: ['transform'],
    version: 1,
    description: 'GETs a URL',
    defaults: { name: 'Fetch' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
  },
  async execute(this: IExecuteFunctions) {
    const url = this.getNodeParameter('url', 0) as string
    await this.helpers.httpRequest({ method: 'GET', url, timeout: 2000 })
    return [this.getInputData()]
  },
}

describe('the n8n runtime', () => {
  let sandbox: Sandbox
  let orderCode: string
  beforeAll(async () => {
    ;({ sandbox, orderCode } = await sandboxWithLink())
  })
  afterAll(() => sandbox.close())

  it('sets N8N_USER_FOLDER and loads n8n-workflow from n8n-core’s location', () => {
    const { core, workflow, require } = loadN8n()
    expect(process.env['N8N_USER_FOLDER']).toEqual(expect.any(String))
    expect(typeof core.WorkflowExecute).toBe('function')
    expect(workflow).toBe(require('n8n-workflow'))
  })

  it('evaluates expressions in the isolated-vm engine', async () => {
    await useExpressionEngine('vm')
    expect(activeExpressionEngine()).toBe('vm')
    const { Expression } = loadN8n().workflow
    const evaluator = (
      Expression as unknown as { vmEvaluator: { evaluate: (...args: Array<unknown>) => unknown } }
    ).vmEvaluator
    const evaluate = vi.spyOn(evaluator, 'evaluate')
    const result = await runWorkflow({
      workflow: {
        nodes: [
          {
            name: 'Get order',
            type: 'paykit.get',
            parameters: { orderCode: '={{ $json.code.toUpperCase() }}' },
            credentials: nodeCredentials,
          },
        ],
        connections: {},
      },
      nodeTypes: { 'paykit.get': getOrderNode },
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
      input: [{ json: { code: orderCode.toLowerCase() } }],
    })
    expect(result.error).toBeUndefined()
    expect(result.nodes['Get order']?.[0]?.[0]?.json).toMatchObject({ orderCode })
    // the node parameter and the credential's `=Bearer {{$credentials.accessToken}}`
    expect(evaluate.mock.calls.map((call) => String(call[0]))).toEqual(
      expect.arrayContaining([
        expect.stringContaining('toUpperCase'),
        expect.stringContaining('$credentials.accessToken'),
      ]),
    )
    evaluate.mockRestore()
  })

  it('lets requests to loopback through n8n’s SSRF protection, which stays on for the rest', async () => {
    const { require } = loadN8n()
    const { Container } = require('@n8n/di') as { Container: { get: (t: unknown) => unknown } }
    const { SsrfProtectionConfig } = require('@n8n/config') as { SsrfProtectionConfig: unknown }
    const config = Container.get(SsrfProtectionConfig) as {
      enabled: boolean
      allowedIpRanges: ReadonlyArray<string>
    }
    expect(config.enabled).toBe(true)
    expect(config.allowedIpRanges).toEqual(expect.arrayContaining([...LOOPBACK_IP_RANGES]))
    const run = (url: string) =>
      runWorkflow({
        workflow: {
          nodes: [{ name: 'Fetch', type: 'test.fetch', parameters: { url } }],
          connections: {},
        },
        nodeTypes: { 'test.fetch': fetchNode },
        input: [{ json: {} }],
      })
    const loopback = await run(`${sandbox.url}/paymentlink/order/${orderCode}`)
    // reached the sandbox: 401 (no credentials), not an SSRF refusal
    expect(loopback.error?.message).not.toMatch(/SSRF|blocked/i)
    expect(
      sandbox
        .requests()
        .some((r) => r.path === `/paymentlink/order/${orderCode}` && r.status === 401),
    ).toBe(true)
    const metadata = await run('http://169.254.169.254/latest/meta-data')
    expect(JSON.stringify(metadata.error)).toMatch(/SSRF|blocked/i)
  })
})
