// Issue 29 §2: the repository stands alone. Every relative link (and image) in every Markdown
// file git tracks resolves to a tracked file or folder inside the repository, and every
// `#anchor` to a heading of its target (GitHub's slugs, by github-slugger); and no tracked
// file names the service documents that live outside the repository (the service as paykit
// implements it is docs/service.md, the decisions docs/decisions/).
import { execFileSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join, posix, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import GithubSlugger from 'github-slugger'
import MarkdownIt from 'markdown-it'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'

/** Tracked files (and new ones not ignored, so a file is checked before its commit). */
const files: ReadonlyArray<string> = execFileSync(
  'git',
  ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
  { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
)
  .split('\0')
  .filter((f) => f !== '' && statSync(join(ROOT, f), { throwIfNoEntry: false })?.isFile())
const fileSet = new Set(files)
/** Folders that hold a tracked file ('.' the root): a link may point at one. */
const folderSet = new Set([
  '.',
  ...files.flatMap((f) => {
    const parts = f.split('/')
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))
  }),
])

const markdownFiles = files.filter((f) => f.endsWith('.md'))

const md = new MarkdownIt({ html: true })
type Token = ReturnType<typeof md.parse>[number]

/** Attribute values of raw HTML (`<a href>`, `<img src>`, `id`/`name` anchors). */
const htmlAttributes = (html: string, names: ReadonlyArray<string>): Array<string> =>
  [...html.matchAll(new RegExp(`\\b(?:${names.join('|')})\\s*=\\s*["']([^"']*)["']`, 'gi'))].map(
    (m) => m[1] ?? '',
  )

/** Every token, inline children included. */
const allTokens = (tokens: ReadonlyArray<Token>): Array<Token> =>
  tokens.flatMap((t) => [t, ...(t.children === null ? [] : allTokens(t.children))])

/** The link and image targets of a Markdown text. */
const targetsOf = (text: string): Array<string> =>
  allTokens(md.parse(text, {})).flatMap((t) =>
    t.type === 'link_open'
      ? [t.attrGet('href') ?? '']
      : t.type === 'image'
        ? [t.attrGet('src') ?? '']
        : t.type === 'html_block' || t.type === 'html_inline'
          ? htmlAttributes(t.content, ['href', 'src'])
          : [],
  )

/** The anchors of a Markdown text: its headings' slugs as GitHub makes them, and HTML ids. */
const anchorsOf = (text: string): ReadonlySet<string> => {
  const slugger = new GithubSlugger()
  const tokens = md.parse(text, {})
  const anchors = new Set<string>()
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') {
      const inline = tokens[i + 1]?.children ?? []
      // The heading's text as rendered: text and code spans, markup dropped.
      const heading = inline
        .filter((c) => c.type === 'text' || c.type === 'code_inline')
        .map((c) => c.content)
        .join('')
      anchors.add(slugger.slug(heading))
    }
    if (t.type === 'html_block' || t.type === 'html_inline') {
      htmlAttributes(t.content, ['id', 'name']).forEach((a) => anchors.add(a))
    }
    t.children?.forEach((c) => {
      if (c.type === 'html_inline')
        htmlAttributes(c.content, ['id', 'name']).forEach((a) => anchors.add(a))
    })
  })
  return anchors
}

const anchorCache = new Map<string, ReadonlySet<string>>()
const anchorsOfFile = (file: string): ReadonlySet<string> => {
  const known = anchorCache.get(file)
  if (known !== undefined) return known
  const anchors = anchorsOf(readFileSync(join(ROOT, file), 'utf8'))
  anchorCache.set(file, anchors)
  return anchors
}

/** Why a link of `from` does not resolve inside the repository, or undefined when it does. */
const brokenLink = (from: string, target: string): string | undefined => {
  // A scheme (https:, mailto:) or a protocol-relative URL: not a link into the repository.
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined
  const [pathPart = '', fragment] = target.split('#', 2)
  const path = decodeURIComponent(pathPart.split('?')[0] ?? '')
  const resolved = path === '' ? from : posix.normalize(posix.join(posix.dirname(from), path))
  const inside = relative(ROOT, resolve(ROOT, resolved))
  if (inside.startsWith('..') || inside.startsWith(sep) || path.startsWith('/')) {
    return `${target}: points outside the repository`
  }
  const file = resolved.replace(/\/$/, '')
  if (!fileSet.has(file) && !folderSet.has(file)) return `${target}: no tracked file ${file}`
  if (fragment === undefined || fragment === '') return undefined
  const anchor = decodeURIComponent(fragment)
  if (!file.endsWith('.md') && fileSet.has(file)) {
    return /^L\d+(-L\d+)?$/.test(anchor)
      ? undefined
      : `${target}: #${anchor} in a file that is not Markdown`
  }
  // A folder's page shows its README: the anchor is one of the README's headings.
  const page = fileSet.has(file) ? file : `${file === '.' ? '' : `${file}/`}README.md`
  if (!fileSet.has(page)) return `${target}: #${anchor} in a folder without a README.md`
  return anchorsOfFile(page).has(anchor) ? undefined : `${target}: no heading #${anchor} in ${page}`
}

/** The outside documents, by the names they go by (their file names, "DESIGN's"). */
const OUTSIDE = /SERVICE-SPEC|DESIGN\.md|\bDESIGN's\b/i

const THIS_FILE = relative(ROOT, fileURLToPath(import.meta.url))
  .split(sep)
  .join('/')

/** Files whose text names the outside documents (docs/api/ is regenerated from the sources). */
const naming = files.filter((f) => {
  if (f === THIS_FILE || f.startsWith('docs/api/')) return false
  const text = readFileSync(join(ROOT, f))
  return !text.includes(0) && OUTSIDE.test(text.toString('utf8'))
})

/** The Markdown files the repository must have: the READMEs and every page of docs/README.md. */
const expectedPages: ReadonlyArray<string> = [
  'README.md',
  'BENCHMARKS.md',
  'tools/README.md',
  'packages/core/README.md',
  'packages/testkit/README.md',
  'packages/n8n-nodes/README.md',
  'docs/README.md',
  'docs/service.md',
  'docs/development.md',
  'docs/tools.md',
  'docs/versions.md',
  'docs/benchmarks.md',
  'docs/releasing.md',
  ...[
    'validation',
    'codecs',
    'money',
    'state-machines',
    'client',
    'webhooks',
    'browser-3ds',
    'contract',
    'layout',
  ].map((p) => `docs/core/${p}.md`),
  ...[
    'test-cards',
    'sandbox',
    'nock',
    'msw',
    'headless-3ds',
    'faults',
    'request-log',
    'simulator',
    'arbitraries',
    'model-kit',
    'n8n-harness',
    'names',
  ].map((p) => `docs/testkit/${p}.md`),
  ...[
    'credentials',
    'paykit-node',
    'one-link-per-order-reference',
    'card-data',
    'trigger',
    'queue-mode',
    'upgrading',
    'examples',
    'templates',
    'try-it',
    'engine-testing',
  ].map((p) => `docs/n8n/${p}.md`),
]

describe('links in the Markdown files', () => {
  it('finds the READMEs, every page of docs/ and BENCHMARKS.md', () => {
    expect(markdownFiles).toEqual(expect.arrayContaining([...expectedPages]))
  })

  it.each(markdownFiles)('%s: every relative link resolves inside the repository', (file) => {
    const broken = targetsOf(readFileSync(join(ROOT, file), 'utf8'))
      .map((target) => brokenLink(file, target))
      .filter((why) => why !== undefined)
    expect(broken).toEqual([])
  })

  it('the check sees a broken file, a broken anchor and a link out of the repository', () => {
    expect(brokenLink('README.md', 'docs/service.md')).toBeUndefined()
    expect(brokenLink('docs/README.md', 'service.md#test-cards')).toBeUndefined()
    expect(brokenLink('README.md', 'docs/nothing-here.md')).toMatch(/no tracked file/)
    expect(brokenLink('README.md', 'docs/service.md#no-such-heading')).toMatch(/no heading/)
    expect(brokenLink('docs/README.md', '../../shared/x.md')).toMatch(/outside the repository/)
    expect(brokenLink('README.md', '/etc/passwd')).toMatch(/outside the repository/)
    expect(brokenLink('docs/README.md', '../packages/testkit#install')).toBeUndefined()
    expect(brokenLink('docs/README.md', '../packages/testkit#nothing')).toMatch(/no heading/)
  })

  it('slugs headings as GitHub does', () => {
    const anchors = anchorsOf('# A `code` title\n\n## Re-runs: one link\n\n## Re-runs: one link\n')
    expect([...anchors]).toEqual(['a-code-title', 're-runs-one-link', 're-runs-one-link-1'])
  })
})

/** The files a Markdown file links to, resolved from the repository root (anchors dropped). */
const linkedFrom = (file: string): ReadonlySet<string> =>
  new Set(
    targetsOf(readFileSync(join(ROOT, file), 'utf8'))
      .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
      .map((t) => posix.normalize(posix.join(posix.dirname(file), t.split('#')[0] ?? ''))),
  )

/** The pages under docs/ (the generated API reference and the decisions have their own index). */
const pages = markdownFiles.filter(
  (f) =>
    f.startsWith('docs/') &&
    f !== 'docs/README.md' &&
    !f.startsWith('docs/api/') &&
    !f.startsWith('docs/decisions/'),
)

describe('every page is found from an index', () => {
  it('docs/README.md links every page under docs/', () => {
    const linked = linkedFrom('docs/README.md')
    expect(pages.filter((p) => !linked.has(p))).toEqual([])
  })

  it.each([
    ['core', 'packages/core/README.md'],
    ['testkit', 'packages/testkit/README.md'],
    ['n8n', 'packages/n8n-nodes/README.md'],
  ])("each page of docs/%s/ is linked from its package's README", (folder, readme) => {
    const linked = linkedFrom(readme)
    expect(pages.filter((p) => p.startsWith(`docs/${folder}/`) && !linked.has(p))).toEqual([])
  })
})

describe('the outside service documents', () => {
  it('no tracked file names them', () => {
    expect(naming).toEqual([])
  })
})
