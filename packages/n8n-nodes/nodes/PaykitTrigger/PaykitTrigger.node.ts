import * as E from 'fp-ts/lib/Either.js'
import type { OrderDetails } from '@paykit/core/pure'
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookEvent,
} from '@paykit/core/pure'
import { signWebhook, verifyWebhook } from '@paykit/core/webhook'
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
import { executionClient } from '../../shared/client'
import { PAYKIT_API } from '../../shared/transport'
import { disagreement, needsConfirmation, type Confirmation } from './confirm'
import { receive, refused, type Delivery, type Reply } from './receive'
import { acceptOnce, seenRecently } from './replay'

const CREDENTIAL = 'paykitWebhookApi'

/** How long the trigger waits for the service when it confirms an event. */
const CONFIRMATION_TIMEOUT_MS = 10_000

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

/** Answers a `Reply` reception itself: JSON for 200, problem details otherwise. */
function replyWith(this: IWebhookFunctions, reply: Reply): IWebhookResponseData {
  return answer.call(this, reply.status, reply.body)
}

/**
 * Reads the event's order back from the service with the `Paykit API` credential: the
 * service's copy when it agrees with the event, else the refusal to answer (a 4xx for a
 * disagreement or an unknown order, a 503 when the service could not be asked, so that a
 * genuine sender delivers again).
 */
async function confirmWithService(
  this: IWebhookFunctions,
  event: WebhookEvent,
  signed: boolean,
): Promise<E.Either<Reply, OrderDetails>> {
  if (this.getNode().credentials?.[PAYKIT_API] === undefined) {
    // Said in n8n's log too: the sender gets the answer, the workflow's owner reads the log.
    const detail = signed
      ? 'the Paykit Trigger confirms every event with Paykit (Options → Confirm With Paykit: Always), but has no Paykit API credential: set one'
      : 'the Paykit Trigger confirms unsigned events with Paykit (Options → Confirm With Paykit), but has no Paykit API credential: set a Paykit Webhook credential to verify signatures, or a Paykit API credential'
    this.logger.warn(`Paykit Trigger "${this.getNode().name}" refused event ${event.id}: ${detail}`)
    return E.left(refused(503, 'Service Unavailable', detail))
  }
  const { client } = await executionClient(this, CONFIRMATION_TIMEOUT_MS)
  const order = await client.getOrder(event.data.orderCode)()
  if (E.isLeft(order)) {
    const unknownOrder = order.left._tag === 'HttpError' && order.left.status === 404
    this.logger.warn(
      `Paykit Trigger "${this.getNode().name}" could not confirm event ${event.id}: ${order.left.message}`,
    )
    return E.left(
      unknownOrder
        ? refused(422, 'Unprocessable Content', 'the event names an order unknown to Paykit')
        : refused(503, 'Service Unavailable', 'Paykit could not be asked to confirm the event'),
    )
  }
  const reason = disagreement(event, order.right)
  if (reason !== undefined) {
    this.logger.warn(`Paykit Trigger "${this.getNode().name}" refused event ${event.id}: ${reason}`)
    return E.left(refused(422, 'Unprocessable Content', `event not confirmed: ${reason}`))
  }
  return E.right(order.right)
}

/**
 * Paykit Trigger: starts a workflow on the service's order events (`order.paid`,
 * `order.cancelled`, `order.finalized`), POSTed to the node's webhook URL. With a
 * `Paykit Webhook` credential every event must carry a valid `Paykit-Signature` (checked
 * by @paykit/core over the raw body); without one, the event's order is read back from the
 * service (`Paykit API` credential) and the event emitted only when they agree. An event id
 * seen again within the tolerance window starts nothing (in this n8n process; the Paykit
 * node's Order Event → Accept Once holds across processes and restarts). Every delivery
 * gets a JSON answer: `{ "received": true }`, or problem details.
 */
export class PaykitTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Paykit Trigger',
    name: 'paykitTrigger',
    icon: { light: 'file:../../icons/paykit.svg', dark: 'file:../../icons/paykit.dark.svg' },
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
      {
        name: 'paykitApi',
        required: false,
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
          "Paykit has no API to register webhooks. Copy this node's Production URL into the merchant portal's webhook setting, or start the sandbox with --webhook-url <URL> (and --webhook-secret <secret>, the same secret as in a Paykit Webhook credential here). Without that credential no signature can be checked, so by default each event's order is read back from Paykit with the Paykit API credential and the event starts the workflow only when they agree.",
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
            displayName: 'Confirm With Paykit',
            name: 'confirmation',
            type: 'options',
            default: 'unsigned',
            description:
              "Whether to read each event's order back from Paykit (Paykit API credential) and start the workflow only when the order's status and totals agree with the event",
            options: [
              {
                name: 'When Unsigned',
                value: 'unsigned',
                description: 'When no Paykit Webhook credential verifies signatures',
              },
              { name: 'Always', value: 'always', description: 'Also for signed events' },
              {
                name: 'Never',
                value: 'never',
                description:
                  'Unsafe without a Paykit Webhook credential: anyone who knows the URL can start the workflow',
              },
            ],
          },
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
    if (reception._tag === 'Reply') return replyWith.call(this, reception)

    const event = reception.event
    const scope = `${String(this.getWorkflow().id)}/${this.getNode().id}`
    const nowSeconds = unixSeconds(now)
    if (seenRecently(scope, event.id, nowSeconds, toleranceSeconds))
      return answer.call(this, 200, { received: true, duplicate: true })

    const confirmation = this.getNodeParameter('options.confirmation', 'unsigned') as Confirmation
    let emitted = event
    if (needsConfirmation(confirmation, secret !== undefined)) {
      const confirmed = await confirmWithService.call(this, event, secret !== undefined)
      if (E.isLeft(confirmed)) return replyWith.call(this, confirmed.left)
      emitted = { ...event, data: confirmed.right }
    }
    // Checked again and recorded in one step: a copy that arrived meanwhile is a duplicate.
    const signedSeconds =
      reception.signedAt === undefined ? nowSeconds : unixSeconds(reception.signedAt)
    if (
      !acceptOnce(
        scope,
        event.id,
        Math.max(nowSeconds, signedSeconds),
        nowSeconds,
        toleranceSeconds,
      )
    )
      return answer.call(this, 200, { received: true, duplicate: true })
    answer.call(this, 200, { received: true })
    return {
      noWebhookResponse: true,
      workflowData: [
        this.helpers.returnJsonArray(WebhookEvent.encode(emitted) as unknown as IDataObject),
      ],
    }
  }
}
