/**
 * The stored credentials the example workflows (`packages/n8n-nodes/examples/`) and the
 * compatibility suite's saved workflows name by id: `paykit-sandbox` (the `Paykit API`
 * credential, the sandbox's client id and secret) and `paykit-webhook` (the `Paykit
 * Webhook` signing secret), as the in-process engine (`@paykit/testkit/n8n`) reads them.
 * One definition for the engine demo and the node's tests (issue 38).
 */
import { defaultCredentials } from '@paykit/testkit'
import type { CredentialStore } from '@paykit/testkit/n8n'

/** Where the credentials point, and the webhook secret (no `paykit-webhook` without one). */
export interface SandboxCredentialsOptions {
  /** The sandbox's URL (the `Base URL` of `paykit-sandbox`). */
  readonly baseUrl: string
  /** The `Signing Secret` of `paykit-webhook`. */
  readonly signingSecret?: string
}

/** The stored credentials the saved and example workflows name, pointing at the sandbox. */
export const sandboxCredentials = ({
  baseUrl,
  signingSecret,
}: SandboxCredentialsOptions): CredentialStore => ({
  'paykit-sandbox': {
    type: 'paykitApi',
    name: 'Paykit sandbox',
    data: { baseUrl, ...defaultCredentials, apiKey: '', accessToken: '' },
  },
  ...(signingSecret === undefined
    ? {}
    : {
        'paykit-webhook': {
          type: 'paykitWebhookApi',
          name: 'Paykit webhook secret',
          data: { signingSecret },
        },
      }),
})
