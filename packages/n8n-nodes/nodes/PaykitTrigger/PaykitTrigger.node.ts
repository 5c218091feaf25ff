import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
} from '@paykit/core/webhook'
import {
  NodeConnectionTypes,
  type ICredentialTestFunctions,
  type ICredentialsDecrypted,
  type IDataObject,
  type IHookFunctions,
  type INodeCredentialTestResult,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  type IWebhookResponseData,
} from 'n8n-workflow'
import { receive, type Delivery } from './receive'
import { SEEN_EVENTS_KEY, readSeen, remember } from './replay'

const CREDENTIAL = 'paykitWebhookApi'

const EVENT_TYPES = ['order.cancelled', 'order.finalized', 'order.paid']

const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000)

/** The signing secret of the node's `Paykit Webhook` credential; undefined without one. */
async function signingSecretOf(this: IWebhookFunctions): Promise<string | undefined> {
  if (this.getNode().credentials?.[CREDENTIAL] === undefined) return undefined
  const credential = await this.getCredentials<{ signingSecret?: unknown }>(CREDENTIAL)
  const secret = credential.signingSecret
  return typeof secret === 'string' && secret !== '' ? secret : undefined
}

/** The raw body bytes n8n kept for the request, read now if n8n has not read them yet. */
async function rawBodyOf(this: IWebhookFunctions): Promise<Buffer | undefined> {
  const req = this.getRequestObject()
  if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function')
    await req.readRawBody()
  return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined
}

/** Answers the request itself (n8n then sends nothing more). */
function answer(this: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
  const res = this.getResponseObject()
  res.statusCode = status
  res.setHeader(
    'content-type',
    status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8',
  )
  res.end(JSON.stringify(body))
  return { noWebhookResponse: true }
}

/**
 * Paykit Trigger: starts a workflow on the service's order events (`order.paid`,
 * `order.cancelled`, `order.finalized`), POSTed to the node's webhook URL. With a
 * `Paykit Webhook` credential every event must carry a valid `Paykit-Signature` (checked
 * by @paykit/core over the raw body); a replayed event id is dropped.
 */
export class PaykitTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Paykit Trigger',
    name: 'paykitTrigger',
    icon: { light: 'file:paykit.svg', dark: 'file:paykit.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{$parameter["events"].join(", ")}}',
    description: 'Starts the workflow when a Paykit order is paid, cancelled or finalized',
    defaults: {
      name: 'Paykit Trigger',
    },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [
      {
        name: 'paykitWebhookApi',
        required: false,
        testedBy: 'paykitWebhookSecretTest',
      },
    ],
    webhooks: [
      {
        name: 'default',
        httpMethod: 'POST',
        responseMode: 'onReceived',
        path: 'webhook',
      },
    ],
    properties: [
      {
        displayName:
          "Paykit has no API to register webhooks. Copy this node's Production URL into the merchant portal's webhook setting, or start the sandbox with --webhook-url <URL> (and --webhook-secret <secret>, the same secret as in a Paykit Webhook credential here). Without that credential no signature is checked and anyone who knows the URL can post events.",
        name: 'registrationNotice',
        type: 'notice',
        default: '',
      },
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        required: true,
        default: ['order.cancelled', 'order.finalized', 'order.paid'],
        description:
          'The order events that start the workflow; others are acknowledged and dropped',
        options: [
          {
            name: 'Order Cancelled',
            value: 'order.cancelled',
            description: 'The buyer cancelled the order, or its payment link expired unpaid',
          },
          {
            name: 'Order Finalized',
            value: 'order.finalized',
            description: 'A paid order was finalized',
          },
          {
            name: 'Order Paid',
            value: 'order.paid',
            description: 'The buyer paid the order',
          },
        ],
      },
      {
        displayName: 'Options',
        name: 'options',
        type: 'collection',
        placeholder: 'Add Option',
        default: {},
        options: [
          {
            displayName: 'Tolerance (Seconds)',
            name: 'toleranceSeconds',
            type: 'number',
            typeOptions: { minValue: 1 },
            default: DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
            description:
              'How far the signature timestamp may be from now. Also how long an event ID is remembered to drop replays.',
          },
        ],
      },
    ],
  }

  methods = {
    credentialTest: {
      /** Checks the secret locally: nothing to call, the service has no webhook API. */
      async paykitWebhookSecretTest(
        this: ICredentialTestFunctions,
        credential: ICredentialsDecrypted,
      ): Promise<INodeCredentialTestResult> {
        const secret = credential.data?.signingSecret
        if (typeof secret !== 'string' || secret === '')
          return { status: 'Error', message: 'Signing Secret is empty' }
        if (secret !== secret.trim())
          return {
            status: 'Error',
            message:
              'Signing Secret starts or ends with whitespace; paste it exactly as the service shows it',
          }
        const now = new Date()
        const body = '{"probe":true}'
        const header = signWebhook({ secret, body, timestamp: now })
        const verified = verifyWebhook({ secret, body, header, now })
        return verified._tag === 'Right'
          ? { status: 'OK', message: 'Signing Secret is usable to verify Paykit-Signature' }
          : {
              status: 'Error',
              message: `Signing Secret cannot verify a signature: ${verified.left.message}`,
            }
      },
    },
  }

  /**
   * The service has no API to register webhooks (spec 6.2): the URL is pasted into the
   * merchant portal (or the sandbox's `--webhook-url`) by hand, so there is nothing to
   * check, create or delete on the service's side.
   */
  webhookMethods = {
    default: {
      async checkExists(this: IHookFunctions): Promise<boolean> {
        return true
      },
      async create(this: IHookFunctions): Promise<boolean> {
        return true
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        return true
      },
    },
  }

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const now = new Date()
    const selected = this.getNodeParameter('events', EVENT_TYPES)
    const events = Array.isArray(selected) ? selected.map(String) : EVENT_TYPES
    const tolerance = Number(
      this.getNodeParameter('options.toleranceSeconds', DEFAULT_WEBHOOK_TOLERANCE_SECONDS),
    )
    const toleranceSeconds =
      Number.isFinite(tolerance) && tolerance > 0 ? tolerance : DEFAULT_WEBHOOK_TOLERANCE_SECONDS
    const secret = await signingSecretOf.call(this)
    const delivery: Delivery = {
      rawBody: await rawBodyOf.call(this),
      parsedBody: this.getBodyData(),
      signature: this.getRequestObject().header(WEBHOOK_SIGNATURE_HEADER),
    }
    if (secret !== undefined && delivery.rawBody === undefined)
      this.logger.warn(
        `Paykit Trigger "${this.getNode().name}" refused an event: n8n kept no raw request body to verify`,
      )
    const reception = receive(delivery, { secret, toleranceSeconds, events, now })
    if (reception._tag === 'Reply')
      return reception.status === 200
        ? { webhookResponse: reception.body }
        : answer.call(this, reception.status, reception.body)

    const staticData = this.getWorkflowStaticData('node')
    const seen = readSeen(staticData[SEEN_EVENTS_KEY])
    const nowSeconds = unixSeconds(now)
    const signedSeconds =
      reception.signedAt === undefined ? nowSeconds : unixSeconds(reception.signedAt)
    const { duplicate, next } = remember(
      seen,
      reception.id,
      Math.max(nowSeconds, signedSeconds),
      nowSeconds,
      toleranceSeconds,
    )
    // Written only when it changed: n8n saves the workflow's static data when it is set.
    if (!duplicate || next.length !== seen.length)
      staticData[SEEN_EVENTS_KEY] = next.map(([key, seconds]) => [key, seconds])
    if (duplicate) return { webhookResponse: { received: true, duplicate: true } }
    return {
      webhookResponse: { received: true },
      workflowData: [this.helpers.returnJsonArray(reception.event)],
    }
  }
}
