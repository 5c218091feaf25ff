// The tools package itself (issue 29 §3): a tool runs under plain Node by its name, the
// workspace's dependencies point one way (tools -> core, testkit; root -> tools; a package
// whose tests import the tools declares them as a dev dependency, issue 38), and no tracked
// file names the former scripts/ folder.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort } from '@paykit/tools/lib/freePort'
import { ROOT } from '@paykit/tools/lib/root'
import { childEnv, run } from '@paykit/tools/lib/run'

interface Manifest {
  readonly name?: string
  readonly private?: boolean
  readonly exports?: Readonly<Record<string, string>>
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
}
const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest
/** Whether a tracked file under `dir` imports `@paykit/tools` (git grep exits 1 on none). */
const importsTheTools = (dir: string): boolean => {
  try {
    execFileSync('git', ['grep', '-q', '-E', `from '@paykit/tools/`, '--', dir], { cwd: ROOT })
    return true
  } catch (error) {
    if ((error as { status?: number }).status !== 1) throw error
    return false
  }
}
const declared = (m: Manifest): ReadonlyArray<string> => [
  ...Object.keys(m.dependencies ?? {}),
  ...Object.keys(m.devDependencies ?? {}),
  ...Object.keys(m.peerDependencies ?? {}),
]

describe('@paykit/tools', () => {
  it('is private and maps each name to its .ts file', () => {
    const tools = manifest('tools')
    expect(tools.name).toBe('@paykit/tools')
    expect(tools.private).toBe(true)
    expect(tools.exports?.['./*']).toBe('./*.ts')
  })

  it('runs under plain Node by its name, with no loader hook (the stack imports its parts by name)', async () => {
    const script = [
      "const { freePort } = await import('@paykit/tools/lib/freePort')",
      "const { startQueueStack } = await import('@paykit/tools/n8n/queue')",
      'console.log(JSON.stringify({ port: await freePort(), queue: typeof startQueueStack }))',
    ].join('\n')
    const r = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: childEnv(),
    })
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as { port: number; queue: string }
    expect(out.port).toBeGreaterThan(0)
    expect(out.queue).toBe('function')
  })

  it('is declared by each package whose files import it, as a dev dependency only: the tools depend on the core and the testkit', () => {
    expect(manifest('.').devDependencies?.['@paykit/tools']).toBe('workspace:*')
    expect(declared(manifest('tools'))).toEqual(
      expect.arrayContaining(['@paykit/core', '@paykit/testkit']),
    )
    for (const dir of ['packages/core', 'packages/testkit', 'packages/n8n-nodes']) {
      const m = manifest(dir)
      expect(importsTheTools(dir), dir).toBe(m.devDependencies?.['@paykit/tools'] === 'workspace:*')
      expect({ ...m.dependencies, ...m.peerDependencies }, dir).not.toHaveProperty([
        '@paykit/tools',
      ])
    }
  })

  it('gives a free port that can be listened on', async () => {
    const port = await freePort()
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', resolve)
    })
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('left nothing under scripts/, and no tracked file names a path of it', () => {
    expect(existsSync(join(ROOT, 'scripts'))).toBe(false)
    // The packages' own scripts/ folders (packages/core/scripts, packages/n8n-nodes/scripts)
    // stay: only the former root folder's parts are looked for.
    const parts =
      'lib|n8n|openapi|docs-check|matrix|release|api|run\\.sh|toolchain\\.sh|demo\\.ts|package-'
    let hits = ''
    try {
      hits = execFileSync(
        'git',
        ['grep', '-n', '-P', `(?<![\\w/.-])scripts/(${parts})`, '--', '.', ':!docs/api'],
        { cwd: ROOT, encoding: 'utf8' },
      )
    } catch (error) {
      // git grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error
    }
    expect(hits).toBe('')
  })
})
