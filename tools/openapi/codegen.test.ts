// The codegen test (issue 27): clients generated from openapi.yaml by openapi-typescript +
// openapi-fetch (with the core README's command) and by @hey-api/openapi-ts type-check under
// `strict` with the flows and probes of ./codegen, run the service's flows against a spawned
// sandbox, and refuse wrong payment-link bodies at compile time; with PaymentLinkRequest as it
// was before (bare `anyOf: [{ required: [amount] }, ...]`) the probes fail to compile.
import { defaultCredentials, testCards } from '@paykit/testkit'
import { spawnSandbox } from '@paykit/testkit/sandbox'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import {
  fixtures,
  probesOf,
  tsFilesIn,
  typeErrors,
  writeClients,
} from '@paykit/tools/openapi/codegen'
import type { FlowInputs, FlowResults } from '@paykit/tools/openapi/codegen/flows'
import { OPENAPI_PATH } from '@paykit/tools/openapi/generate'
import { ROOT } from '@paykit/tools/lib/root'

// Under the repository (ignored .tools/), so that the generated code resolves openapi-fetch.
mkdirSync(join(ROOT, '.tools'), { recursive: true })
const work = mkdtempSync(join(ROOT, '.tools', 'codegen-'))
const fixed = join(work, 'fixed')
const before = join(work, 'before')
afterAll(() => rmSync(work, { recursive: true, force: true }))

type Schema = Record<string, unknown>

/** openapi.yaml with PaymentLinkRequest as the generator wrote it before issue 27. */
const beforeIssue27 = (document: { components: { schemas: Record<string, Schema> } }) => {
  const copy = structuredClone(document)
  const request = copy.components.schemas['PaymentLinkRequest'] as {
    description: string
    anyOf: ReadonlyArray<{ properties: object }>
  }
  copy.components.schemas['PaymentLinkRequest'] = {
    description: request.description,
    type: 'object',
    properties: request.anyOf[0]?.properties,
    anyOf: [{ required: ['amount'] }, { required: ['lineItems'] }],
  }
  return copy
}

const PROBES = [
  'amount is a number',
  'the body is an object',
  'amount or lineItems is required',
  'orderName is a string',
]

/**
 * Each generator, and the probes that compiled against its client of before: openapi-fetch
 * took any body (`unknown`); hey-api's `unknown & {...}` took one with neither key.
 */
const GENERATORS = [
  { name: 'openapi-typescript + openapi-fetch', prefix: 'openapiFetch', compiledBefore: PROBES },
  {
    name: '@hey-api/openapi-ts',
    prefix: 'heyApi',
    compiledBefore: ['amount or lineItems is required'],
  },
] as const

describe('clients generated from openapi.yaml', () => {
  beforeAll(async () => {
    const document = parse(readFileSync(OPENAPI_PATH, 'utf8'))
    await writeClients(fixed, document)
    await writeClients(before, beforeIssue27(document))
  }, 60_000) // four generations, two of them a spawned CLI

  it('both generators found their fixtures', () => {
    expect(fixtures('.flows.ts')).toEqual(['heyApi.flows.ts', 'openapiFetch.flows.ts'])
    expect(fixtures('.probes.ts')).toEqual(['heyApi.probes.ts', 'openapiFetch.probes.ts'])
  })

  it('type-check under strict with the flows, the probes and the README lines: 0 errors', () => {
    const started = performance.now()
    const files = tsFilesIn(fixed)
    const errors = typeErrors(fixed, files)
    console.log(
      `codegen: ${files.length} files (both clients, flows, probes, README lines) ` +
        `type-checked under strict in ${Math.round(performance.now() - started)} ms: ` +
        `${errors.length} errors`,
    )
    expect(errors).toEqual([])
  })

  it.each(GENERATORS)(
    '$name: the probes compile, and fail to compile against the client of before',
    ({ prefix, compiledBefore }) => {
      const probes = join(before, `${prefix}.probes.ts`)
      expect(probesOf(probes).map((p) => p.says)).toEqual(PROBES)
      const errors = typeErrors(before, [probes])
      console.log(
        `codegen ${prefix}, PaymentLinkRequest as before issue 27: ` +
          `${errors.map((e) => `${e.file}:${e.line} TS${e.code}`).join(', ') || 'no error'}`,
      )
      // Unused @ts-expect-error (TS2578, at the directive's line): the wrong body compiled.
      expect(errors.filter((e) => e.code !== 2578)).toEqual([])
      const compiled = errors.map((e) => probesOf(probes).find((p) => p.line === e.line)?.says)
      expect(compiled).toEqual(compiledBefore)
    },
  )

  it.each(GENERATORS)(
    '$name: runs the flows against the sandbox (token, card, 3DS charge, link, order, 400, 401)',
    async ({ prefix }) => {
      const sandbox = await spawnSandbox()
      try {
        const { runFlows } = (await import(join(fixed, `${prefix}.flows.ts`))) as {
          runFlows: (inputs: FlowInputs) => Promise<FlowResults>
        }
        const started = performance.now()
        const results = await runFlows({
          baseUrl: sandbox.url,
          ...defaultCredentials,
          card3ds: testCards.authentication.number,
          orderId: `ord-${prefix}`,
        })
        console.log(
          `codegen ${prefix}: flows in ${Math.round(performance.now() - started)} ms: ` +
            JSON.stringify(results),
        )
        expect(results).toEqual({
          tokenType: 'Bearer',
          cardBrand: testCards.authentication.brand,
          charge: 'AUTHENTICATION_REQUIRED',
          authenticationPage: 200,
          chargeAfter3ds: 'SUCCEEDED',
          chargedReference: `ord-${prefix}`,
          linkOrderCode: expect.any(String),
          orderStatus: 'PENDING',
          orderTotal: 49.9,
          badRequest: {
            status: 400,
            fields: ['cardId'],
            detail: 'The request breaks one or more rules; see errors.',
          },
          unauthorized: { status: 401, title: 'Unauthorized' },
        })
      } finally {
        await sandbox.stop()
      }
    },
  )
})
