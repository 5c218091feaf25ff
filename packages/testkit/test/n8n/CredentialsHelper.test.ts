// @paykit-test own-worker: n8n's engine in this process
import type {
  ICredentialType,
  IHttpRequestHelper,
  INode,
  IWorkflowExecuteAdditionalData,
} from 'n8n-workflow'
import { describe, expect, it, vi } from 'vitest'
import { TestCredentialsHelper } from '../../src/n8n/index.js'

const base: ICredentialType = {
  name: 'baseApi',
  displayName: 'Base API',
  properties: [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: 'https://api.example.com',
    },
    { displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
  ],
}

const tokenApi = (preAuthentication: ICredentialType['preAuthentication']): ICredentialType => ({
  name: 'tokenApi',
  displayName: 'Token API',
  extends: ['baseApi'],
  properties: [
    { displayName: 'Key', name: 'key', type: 'string', default: '' },
    { displayName: 'Host', name: 'host', type: 'string', default: '' },
    {
      displayName: 'Access Token',
      name: 'accessToken',
      type: 'hidden',
      typeOptions: { expirable: true },
      default: '',
    },
  ],
  ...(preAuthentication === undefined ? {} : { preAuthentication }),
  authenticate: {
    type: 'generic',
    properties: {
      headers: { Authorization: '=Bearer {{$credentials.accessToken}}', 'X-Static': 'static' },
      qs: { region: '={{$credentials?.region}}' },
      auth: { username: '={{$credentials.key}}', password: '' },
    },
  },
})

const node: INode = {
  id: 'n1',
  name: 'Node',
  type: 'test.node',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
  credentials: { tokenApi: { id: 'c1', name: 'Mine' } },
}

const helpers = {} as IHttpRequestHelper
const additionalData = {
  webhookWaitingBaseUrl: 'http://x',
  formWaitingBaseUrl: 'http://x',
  variables: {},
} as unknown as IWorkflowExecuteAdditionalData

const helperWith = (preAuthentication: ICredentialType['preAuthentication'], data = {}) =>
  new TestCredentialsHelper({
    credentialTypes: [base, tokenApi(preAuthentication)],
    credentials: { c1: { type: 'tokenApi', name: 'Mine', data: { key: 'k', ...data } } },
  })

describe('TestCredentialsHelper', () => {
  it('merges parent properties and names parent types', () => {
    const helper = helperWith(undefined)
    expect(helper.getParentTypes('tokenApi')).toEqual(['baseApi'])
    expect(helper.getCredentialsProperties('tokenApi').map((p) => p.name)).toEqual([
      'baseUrl',
      'region',
      'key',
      'host',
      'accessToken',
    ])
  })

  it('decrypts with defaults applied and expressions resolved; raw as stored', async () => {
    const helper = helperWith(undefined, { host: "={{ 'api.' + 'example.com' }}" })
    const ref = { id: 'c1', name: 'Mine' }
    expect(await helper.getDecrypted(additionalData, ref, 'tokenApi', 'manual')).toEqual({
      baseUrl: 'https://api.example.com',
      region: 'eu',
      key: 'k',
      host: 'api.example.com',
      accessToken: '',
    })
    expect(
      await helper.getDecrypted(additionalData, ref, 'tokenApi', 'manual', undefined, true),
    ).toEqual({
      key: 'k',
      host: "={{ 'api.' + 'example.com' }}",
    })
    await expect(
      helper.getDecrypted(additionalData, { id: 'nope', name: 'x' }, 'tokenApi', 'manual'),
    ).rejects.toThrow('Credential with ID "nope" does not exist for type "tokenApi".')
  })

  it('runs preAuthentication when the expirable field is empty or expired, and stores the token', async () => {
    const preAuthentication = vi.fn(async () => ({ accessToken: 'tok-1' }))
    const helper = helperWith(preAuthentication)
    expect(
      await helper.preAuthentication(helpers, { accessToken: '' }, 'tokenApi', node, false),
    ).toEqual({
      accessToken: 'tok-1',
    })
    expect(helper.snapshot()['c1']?.data).toEqual({ accessToken: 'tok-1' })
    expect(
      await helper.preAuthentication(helpers, { accessToken: 'tok-1' }, 'tokenApi', node, false),
    ).toBeUndefined()
    expect(
      await helper.preAuthentication(helpers, { accessToken: 'tok-1' }, 'tokenApi', node, true),
    ).toEqual({
      accessToken: 'tok-1',
    })
    expect(preAuthentication).toHaveBeenCalledTimes(2)
    expect(preAuthentication.mock.contexts[0]).toBe(helpers)
    expect(helper.preAuthentications().map((c) => [c.expired, c.ran])).toEqual([
      [false, true],
      [false, false],
      [true, true],
    ])
  })

  it('does not store an output without the expirable property', async () => {
    const helper = helperWith(async () => ({ other: 1 }))
    expect(
      await helper.preAuthentication(helpers, { accessToken: '' }, 'tokenApi', node, false),
    ).toBeUndefined()
    expect(helper.snapshot()['c1']?.data).toEqual({ key: 'k' })
  })

  it('applies a generic authenticate with $credentials resolved by the engine', async () => {
    const helper = helperWith(undefined)
    const options = await helper.authenticate(
      { accessToken: 'tok', region: 'us', key: 'user' },
      'tokenApi',
      { url: 'https://api.example.com/x', headers: { accept: 'application/json' } },
    )
    expect(options).toEqual({
      url: 'https://api.example.com/x',
      headers: { accept: 'application/json', Authorization: 'Bearer tok', 'X-Static': 'static' },
      qs: { region: 'us' },
      auth: { username: 'user', password: '' },
    })
  })

  it('calls a function authenticate', async () => {
    const helper = new TestCredentialsHelper({
      credentialTypes: [
        {
          name: 'fnApi',
          displayName: 'Fn',
          properties: [],
          authenticate: async (credentials, options) => ({
            ...options,
            headers: { 'x-key': String(credentials['key']) },
          }),
        },
      ],
    })
    expect(await helper.authenticate({ key: 'k' }, 'fnApi', { url: 'u' })).toEqual({
      url: 'u',
      headers: { 'x-key': 'k' },
    })
  })

  it('restricts a type to its supported nodes only when it asks to', () => {
    const helper = new TestCredentialsHelper({
      credentialTypes: [
        { ...base, name: 'restricted', restrictToSupportedNodes: true, supportedNodes: ['a.b'] },
        base,
      ],
    })
    expect(helper.isCredentialUsableByNode('restricted', 'a.b')).toBe(true)
    expect(helper.isCredentialUsableByNode('restricted', 'n8n-nodes-base.httpRequest')).toBe(false)
    expect(helper.isCredentialUsableByNode('baseApi', 'anything')).toBe(true)
    expect(() => helper.getCredentialsProperties('unknown')).toThrow(
      'Unrecognized credential type: unknown',
    )
  })
})
