import type {
  ICredentialDataDecryptedObject,
  ICredentialTestRequest,
  ICredentialType,
  IDataObject,
  IHttpRequestHelper,
  IHttpRequestOptions,
  INodeProperties,
  Icon,
} from 'n8n-workflow'
import { tokenRequest, authenticateRequest } from '../shared/credential'

/**
 * The `Paykit API` credential: the service's base URL, client id and secret (exchanged for
 * an access token by `POST /token`), and an optional API key for the payment-link
 * endpoints. The access token is a hidden expirable field: n8n fills it through
 * `preAuthentication`, keeps it in its credential store, and renews it when a request
 * answers 401. Within one process (n8n's main process, or each queue-mode worker) the
 * executions share one `POST /token` per token lifetime: concurrent calls wait for one
 * request, the token is reused until shortly before `expiresIn`, a refused token is never
 * handed back, and a failed request (a wrong secret) is never kept.
 */
export class PaykitApi implements ICredentialType {
  name = 'paykitApi'

  displayName = 'Paykit API'

  icon: Icon = { light: 'file:../icons/paykit.svg', dark: 'file:../icons/paykit.dark.svg' }

  documentationUrl = 'https://github.com/paykit/paykit/tree/main/packages/n8n-nodes#credentials'

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: 'http://127.0.0.1:4010',
      placeholder: 'https://api.example.com',
      description:
        'Address of the Paykit service. The default is the local sandbox started by `npm run sandbox`.',
      required: true,
    },
    {
      displayName: 'Client ID',
      name: 'clientId',
      type: 'string',
      default: '',
      required: true,
    },
    {
      displayName: 'Client Secret',
      name: 'clientSecret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      description:
        'Secret key for the payment-link endpoints. Leave empty to use the access token there too.',
    },
    {
      displayName: 'Access Token',
      name: 'accessToken',
      type: 'hidden',
      typeOptions: { expirable: true, password: true },
      default: '',
    },
  ]

  async preAuthentication(
    this: IHttpRequestHelper,
    credentials: ICredentialDataDecryptedObject,
  ): Promise<IDataObject> {
    return await tokenRequest(this.helpers.httpRequest, credentials)
  }

  /**
   * The Test button: n8n first runs `preAuthentication` (a token from the client id and
   * secret, with a clear message when they are refused), then asks for a token once more.
   */
  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl}}',
      url: '/token',
      method: 'POST',
      body: {
        clientId: '={{$credentials.clientId}}',
        clientSecret: '={{$credentials.clientSecret}}',
      },
      json: true,
    },
  }

  authenticate = async (
    credentials: ICredentialDataDecryptedObject,
    requestOptions: IHttpRequestOptions,
  ): Promise<IHttpRequestOptions> => authenticateRequest(credentials, requestOptions)
}
