/**
 * publishedMetadataProblems, the packing tests' check of a published package.json, refuses
 * what npm's provenance and the registry page need and a manifest may lack.
 */
import { describe, expect, it } from 'vitest'
import { publishedMetadataProblems, REPOSITORY_URL } from '@paykit/tools/package-check'

const complete = {
  name: '@paykit/core',
  version: '0.2.0',
  license: 'MIT',
  homepage: 'https://github.com/paykit/paykit/tree/main/packages/core#readme',
  bugs: { url: 'https://github.com/paykit/paykit/issues' },
  repository: { type: 'git', url: REPOSITORY_URL, directory: 'packages/core' },
  author: { name: 'Paykit maintainers' },
  keywords: ['payments'],
  files: ['dist'],
  publishConfig: { access: 'public', provenance: true },
  dependencies: { 'decimal.js': '^10.6.0' },
}

describe('publishedMetadataProblems', () => {
  it('finds nothing missing in a complete manifest', () => {
    expect(publishedMetadataProblems(complete, 'core')).toEqual([])
  })

  it('names each missing or wrong field', () => {
    const { publishConfig: _publish, bugs: _bugs, ...rest } = complete
    expect(
      publishedMetadataProblems(
        {
          ...rest,
          repository: { ...complete.repository, directory: 'packages/testkit' },
          dependencies: { '@paykit/testkit': 'workspace:^' },
          private: true,
        },
        'core',
      ),
    ).toEqual([
      'repository.directory is not packages/core',
      "bugs.url is not the repository's issues",
      'publishConfig.access is not public',
      'publishConfig.provenance is not true',
      'private is set',
      'a workspace: range is left',
    ])
  })
})
