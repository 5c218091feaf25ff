/**
 * What the backward-compatibility suite shares: the saved workflows of fixtures/ (one folder
 * per type version, each file as n8n saves it: `typeVersion` set, only the parameters that
 * differ from their defaults), run through the real n8n engine against the sandbox with the
 * credentials they name, and the service-side set-up (cards, charges awaiting 3DS, links)
 * made with the core's client, so that only the node under test runs in n8n.
 */
import { readFileSync, readdirSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import type { TaskEither } from 'fp-ts/lib/TaskEither.js'
import type { IDataObject, INode } from 'n8n-workflow'
import { NodeHelpers, Workflow } from 'n8n-workflow'
import { createClient, type Client } from '@paykit/core'
import { defaultCredentials, type testCards } from '@paykit/testkit'
import { type Sandbox } from '@paykit/testkit/sandbox'
import type { CredentialStore, WorkflowJson } from '@paykit/testkit/n8n'
import { runWorkflow } from '@paykit/testkit/n8n'
import { sandboxCredentials } from '@paykit/tools/n8n/credentials'
import { dist, nodeTypes } from '../support.js'

// -------------------------------------------------------------------------------------
// saved workflows
// -------------------------------------------------------------------------------------

const FIXTURES = new URL('./fixtures/', import.meta.url)

/** The type versions the suite has saved workflows of (its fixtures' folders: `v1`, `v1.1`). */
export const savedVersions = (): ReadonlyArray<number> =>
  readdirSync(FIXTURES)
    .filter((name) => name.startsWith('v'))
    .map((name) => Number(name.slice(1)))
    .sort((a, b) => a - b)

/** The saved workflow `fixtures/v<version>/<name>.json`. */
export const saved = (version: number | string, name: string): WorkflowJson =>
  JSON.parse(
    readFileSync(new URL(`v${String(version)}/${name}.json`, FIXTURES), 'utf8'),
  ) as WorkflowJson

/** The secret of the stored `Paykit Webhook` credential (`paykit-webhook`). */
export const WEBHOOK_SECRET = 'whsec-compat-5d1e'

/** The stored credentials the saved workflows name, pointing at `sandbox`. */
export const savedCredentials = (sandbox: Pick<Sandbox, 'url'>): CredentialStore =>
  sandboxCredentials({ baseUrl: sandbox.url, signingSecret: WEBHOOK_SECRET })

/** Runs a saved workflow through the real engine, `input` as its start node's items. */
export const runSaved = (
  sandbox: Pick<Sandbox, 'url'>,
  workflow: WorkflowJson,
  input: ReadonlyArray<IDataObject> = [{}],
) =>
  runWorkflow({
    workflow,
    nodeTypes: nodeTypes(),
    credentialTypes: [
      new dist.credential.PaykitApi(),
      new dist.webhookCredential.PaykitWebhookApi(),
    ],
    credentials: savedCredentials(sandbox),
    input: input.map((json) => ({ json: { ...json } })),
  })

/** The JSON of the items a node put on its output `output` (0 by default). */
export const itemsOf = (
  result: Awaited<ReturnType<typeof runSaved>>,
  node: string,
  output = 0,
): ReadonlyArray<IDataObject> => (result.nodes[node]?.[output] ?? []).map((i) => i.json)

// -------------------------------------------------------------------------------------
// the editor
// -------------------------------------------------------------------------------------

/** The outputs n8n draws for a Paykit node: its description's expression, evaluated by n8n. */
export const outputsDrawn = (node: INode) => {
  const paykit = new dist.node.Paykit()
  const description = paykit.getNodeType(node.typeVersion).description
  const workflow = new Workflow({
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes: {
      getByName: () => paykit,
      getByNameAndVersion: () => paykit.getNodeType(node.typeVersion),
      getKnownTypes: () => ({}),
    },
  })
  return NodeHelpers.getNodeOutputs(workflow, workflow.nodes[node.name] as INode, description)
}

// -------------------------------------------------------------------------------------
// the service side
// -------------------------------------------------------------------------------------

const year = String(new Date().getUTCFullYear() + 3)

/** A card as the input item holds it at the default field names (`card.*`). */
export const cardItem = (number: string, cvv = '987'): IDataObject => ({
  card: { number, expirationMonth: '12', expirationYear: year, cvv },
})

/** The core's client on `sandbox`. */
export const clientOf = (sandbox: Pick<Sandbox, 'url'>): Client =>
  createClient({ baseUrl: sandbox.url, credentials: { ...defaultCredentials } })

/** The value of a core call, or the test fails with its message. */
export const value = async <A>(call: TaskEither<{ readonly message: string }, A>): Promise<A> => {
  const result = await call()
  if (E.isLeft(result)) throw new Error(result.left.message)
  return result.right
}

/** A saved card of the sandbox (a payment method id) for a test card. */
export const savedCard = async (
  sandbox: Pick<Sandbox, 'url'>,
  card: (typeof testCards)[keyof typeof testCards],
): Promise<string> => {
  const method = await value(
    clientOf(sandbox).createPaymentMethod({
      card: { number: card.number, expirationMonth: '12', expirationYear: year, cvv: '123' },
    }),
  )
  return method.id
}
