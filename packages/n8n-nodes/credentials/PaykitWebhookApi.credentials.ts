import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow'

/**
 * The `Paykit Webhook` credential: the secret the service signs its order events with
 * (`Paykit-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`). Paykit Trigger verifies
 * every event with it when the node has it; a node without it accepts unsigned events.
 * The secret never leaves the n8n instance: nothing is sent anywhere, so the credential is
 * tested locally by the trigger (`testedBy`), not against the service.
 */
export class PaykitWebhookApi implements ICredentialType {
  name = 'paykitWebhookApi'

  displayName = 'Paykit Webhook API'

  icon: Icon = { light: 'file:../icons/paykit.svg', dark: 'file:../icons/paykit.dark.svg' }

  documentationUrl = 'https://github.com/paykit/paykit/tree/main/packages/n8n-nodes#paykit-webhook'

  properties: INodeProperties[] = [
    {
      displayName: 'Signing Secret',
      name: 'signingSecret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description:
        "The secret the service signs webhooks with: the one set in the merchant portal, or the sandbox's --webhook-secret. Paste it exactly (no surrounding spaces or line breaks).",
    },
  ]
}
