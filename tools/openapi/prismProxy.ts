// An independent contract check in front of a running sandbox: Stoplight Prism as a validating
// proxy (`prism proxy --errors openapi.yaml <sandbox>`), behind a small front that sends the
// document's operations through Prism and everything else (the hosted pages, the control
// endpoints, a method no operation has) straight to the sandbox. With --errors an answer off
// the document becomes Prism's own 500 (VIOLATIONS), so the caller's test fails there.
//
// Request validation is off (--validate-request=false): the conformance tests send invalid
// requests on purpose, and Prism would answer those itself (422) instead of the sandbox. The
// request schemas are checked against the codecs by ./schemas.test.ts.
//
// The conformance suite's support (packages/testkit/test/conformance/support.ts) puts this
// front before every sandbox it starts when PAYKIT_CONFORMANCE_FRONT names this module; each
// front appends its counts to the file PAYKIT_CONTRACT_LOG names, one JSON line when it closes.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { appendFileSync, readFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { parse } from 'yaml'
import { freePort } from '@paykit/tools/lib/freePort'
import { ROOT } from '@paykit/tools/lib/root'

const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js')

/** Runs its arguments as a Node child and stops it when stdin ends or on SIGTERM. */
const KEEPER = [
  "import { spawn } from 'node:child_process'",
  "const child = spawn(process.execPath, process.argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] })",
  'const stop = () => child.kill()',
  "process.stdin.on('end', stop).on('close', stop).resume()",
  "process.on('SIGTERM', stop)",
  "child.on('exit', (code) => process.exit(code ?? 1))",
].join('\n')

/** The committed document. */
export const DOCUMENT = resolve(ROOT, 'openapi.yaml')

/** What one front saw: the requests Prism checked and what it found. */
export interface ContractCounts {
  /** Requests sent through Prism (the document's operations). */
  readonly checked: number
  /** Of those, the requests Prism forwarded to the sandbox (the rest it answered itself). */
  readonly forwarded: number
  /** Requests sent straight to the sandbox (pages, control endpoints, other methods). */
  readonly bypassed: number
  /** Answers Prism found off the document (its VIOLATIONS errors), with what it said. */
  readonly violations: ReadonlyArray<string>
  /** Requests Prism could not match to an operation (should be none: the front routes). */
  readonly unmatched: number
}

export interface ContractProxy {
  /** The front's URL, known before the sandbox starts (so it can be its `--base-url`). */
  readonly url: string
  /** Starts Prism before the sandbox at `target`; requests wait for it. */
  readonly connect: (target: string) => Promise<void>
  /** What Prism logged so far (it logs a violation just after its answer). */
  readonly counts: () => ContractCounts
  readonly close: () => Promise<void>
}

/** Matchers of the document's operations: `GET /paymentlink/order/{orderCode}` -> regex. */
const operationsOf = (document: string): ReadonlyArray<{ method: string; path: RegExp }> => {
  const paths = (parse(readFileSync(document, 'utf8')) as { paths: Record<string, object> }).paths
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase(),
      path: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  )
}

/** Starts Prism on a free port; resolves once it listens. */
const startPrism = async (
  document: string,
  target: string,
): Promise<{ url: string; child: ChildProcess; log: () => string }> => {
  const port = await freePort()
  // Prism runs under a small keeper that stops it when the pipe from this process closes,
  // however this process ends: a test that left its sandbox (and so this front) open left
  // one Prism running after each test run.
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      KEEPER,
      PRISM,
      'proxy',
      '--errors',
      '--validate-request=false',
      document,
      target,
      '-p',
      String(port),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let log = ''
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not start:\n${log}`)), 60_000)
    const check = (): void => {
      if (log.includes('Prism is listening')) {
        clearTimeout(timer)
        done()
      }
    }
    child.stdout?.on('data', check)
    child.on('exit', (code) => fail(new Error(`Prism exited (${code}):\n${log}`)))
  })
  return { url: `http://127.0.0.1:${port}`, child, log: () => log }
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** A front whose `connect(target)` puts Prism before the sandbox at `target`. */
export const startContractProxy = async (document = DOCUMENT): Promise<ContractProxy> => {
  const operations = operationsOf(document)
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined
  let target = ''
  let ready: () => void = () => {}
  const connected = new Promise<void>((done) => (ready = done))
  let checked = 0
  let bypassed = 0
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void connected.then(() => {
        const body = Buffer.concat(chunks)
        const pathname = new URL(req.url ?? '/', 'http://front').pathname
        // Prism never answers a body that is not JSON text under a JSON content type: such a
        // request (the robustness tests send some) goes straight to the sandbox.
        const unreadable =
          body.length > 0 &&
          /json/.test(req.headers['content-type'] ?? '') &&
          !isJson(body.toString())
        const viaPrism =
          prism !== undefined &&
          !unreadable &&
          operations.some((o) => o.method === req.method && o.path.test(pathname))
        if (viaPrism) checked++
        else bypassed++
        const headers = { ...req.headers }
        // Prism compares the auth scheme case-sensitively (RFC 7235 says it is not): a
        // lower-case `bearer` would get Prism's own 401 instead of the sandbox's answer.
        if (viaPrism && headers.authorization !== undefined)
          headers.authorization = headers.authorization.replace(/^bearer(?= )/i, 'Bearer')
        const upstream = request(
          new URL(req.url ?? '/', viaPrism && prism !== undefined ? prism.url : target),
          { method: req.method, headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          },
        )
        upstream.on('error', () => res.destroy())
        upstream.end(body)
      })
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const counts = (): ContractCounts => {
    const lines = prism?.log().split('\n') ?? []
    return {
      checked,
      forwarded: lines.filter((l) => l.includes('> Forwarding')).length,
      bypassed,
      violations: lines.filter((l) => l.includes('errors#VIOLATIONS')),
      unmatched: lines.filter((l) => /errors#NO_(PATH|METHOD)_MATCHED/.test(l)).length,
    }
  }
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connect: async (sandbox) => {
      target = sandbox
      prism = await startPrism(document, sandbox)
      ready()
    },
    counts,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
      // Prism logs a violation after it answers: wait for its output to end, then count.
      if (prism !== undefined && prism.child.exitCode === null) {
        const exited = once(prism.child, 'close')
        prism.child.kill()
        await exited
      }
      const logFile = process.env['PAYKIT_CONTRACT_LOG']
      if (logFile !== undefined) appendFileSync(logFile, `${JSON.stringify(counts())}\n`)
    },
  }
}

/** The front the conformance support starts before a sandbox (see the top of this file). */
export const startFront = (): Promise<ContractProxy> => startContractProxy()
