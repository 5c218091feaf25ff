// The independent contract check: the sandbox's conformance suite (packages/testkit/test/
// conformance) run once with Prism validating every answer against openapi.yaml
// (./prismProxy.ts), with 0 violations; and an answer off the contract (the sandbox's
// offContractBody fault) is caught, so the check can fail.
import { defaultCredentials } from '@paykit/testkit'
import { spawnSandbox } from '@paykit/testkit/sandbox'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { type ContractCounts, startContractProxy } from '@paykit/tools/openapi/prismProxy'
import { ROOT } from '@paykit/tools/lib/root'

const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')
const work = mkdtempSync(join(tmpdir(), 'paykit-prism-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/**
 * The four fault tests whose answers are off the contract on purpose (a body that is not JSON,
 * one cut in half, a reset connection, JSON of no response): through Prism they get its 500,
 * as the second test below shows for one of them. Every other conformance test runs.
 */
const OFF_CONTRACT_ON_PURPOSE = /malformedBody|truncatedBody|connectionReset|offContractBody/

const sum = (counts: ReadonlyArray<ContractCounts>, key: 'checked' | 'forwarded' | 'bypassed') =>
  counts.reduce((n, c) => n + c[key], 0)

describe('Prism proxy before the sandbox (prism proxy --errors openapi.yaml)', () => {
  it('the conformance suite passes through it with 0 violations', async () => {
    const log = join(work, 'contract.jsonl')
    const results = join(work, 'results.json')
    const run = await promisify(execFile)(
      process.execPath,
      [
        VITEST,
        'run',
        '--config',
        'vitest.workspace.ts',
        // The testkit's files are two projects: those with a worker each and those sharing one.
        '--project',
        'testkit',
        '--project',
        'testkit-shared',
        'packages/testkit/test/conformance/',
        '--testNamePattern',
        `^(?!.*(${OFF_CONTRACT_ON_PURPOSE.source}))`,
        '--reporter=json',
        `--outputFile=${results}`,
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PAYKIT_CONFORMANCE_FRONT: join(import.meta.dirname, 'prismProxy.ts'),
          PAYKIT_CONTRACT_LOG: log,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      stderr: `exit ${error.code}: ${error.stderr ?? ''}`,
    }))
    const report = JSON.parse(readFileSync(results, 'utf8')) as {
      numPassedTests: number
      testResults: ReadonlyArray<{
        name: string
        status: string
        message: string
        assertionResults: ReadonlyArray<{
          status: string
          fullName: string
          failureMessages: ReadonlyArray<string>
        }>
      }>
    }
    const files = report.testResults
    const tests = files.flatMap((f) => f.assertionResults)
    const failed = [
      ...files.filter((f) => f.status === 'failed').map((f) => `${f.name}: ${f.message}`),
      ...tests
        .filter((a) => a.status === 'failed')
        .map((a) => `${a.fullName}: ${a.failureMessages.join('\n').slice(0, 400)}`),
    ]
    expect(failed, run.stderr.slice(-2000)).toEqual([])
    const left = tests.filter((a) => a.status !== 'passed').map((a) => a.fullName)
    expect(left).toHaveLength(4)
    expect(left.every((name) => OFF_CONTRACT_ON_PURPOSE.test(name))).toBe(true)
    const counts = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ContractCounts)
    const violations = counts.flatMap((c) => c.violations)
    console.log(
      `Prism proxy check: ${report.numPassedTests} conformance tests passed ` +
        `(${left.length} left out: the off-contract faults), ${counts.length} sandboxes; ` +
        `${sum(counts, 'checked')} requests through Prism (${sum(counts, 'forwarded')} forwarded, ` +
        `the rest answered 401 by Prism's security check), ${sum(counts, 'bypassed')} to pages ` +
        `and control endpoints; ${violations.length} violations`,
    )
    expect(violations).toEqual([])
    expect(counts.reduce((n, c) => n + c.unmatched, 0)).toBe(0)
    expect(report.numPassedTests).toBeGreaterThan(200)
    expect(sum(counts, 'forwarded')).toBeGreaterThan(300)
  })

  it('catches an answer off the contract (offContractBody): Prism answers 500 VIOLATIONS', async () => {
    const sandbox = await spawnSandbox({ args: ['--control'] })
    const proxy = await startContractProxy()
    try {
      await proxy.connect(sandbox.url)
      const token = (): Promise<Response> =>
        fetch(`${proxy.url}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            clientId: defaultCredentials.clientId,
            clientSecret: defaultCredentials.clientSecret,
          }),
        })
      expect((await token()).status).toBe(200)
      expect(proxy.counts().violations).toEqual([])
      const injected = await fetch(`${sandbox.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fault: 'offContractBody', path: '/token', times: 1 }),
      })
      expect(injected.status).toBe(200)
      const caught = await token()
      expect(caught.status).toBe(500)
      const problem = (await caught.json()) as { type: string; validation: ReadonlyArray<object> }
      expect(problem.type).toBe('https://stoplight.io/prism/errors#VIOLATIONS')
      expect(problem.validation).toContainEqual(
        expect.objectContaining({ location: ['response', 'body'], code: 'required' }),
      )
      await expect.poll(() => proxy.counts().violations, { timeout: 5_000 }).toHaveLength(1)
      expect((await token()).status).toBe(200) // the fault was for one answer
    } finally {
      await proxy.close()
      await sandbox.stop()
    }
  })
})
