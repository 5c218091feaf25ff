// @paykit-test own-worker: n8n's engine in this process
import { describe, expect, it } from 'vitest'
import { baseNodeType, baseNodeTypes, nodeTypesOf } from '../../src/n8n/index.js'
import { BASE_NODES_FROM, getOrderNode } from './fixtures.js'

describe('baseNodeType', () => {
  it('loads a built-in node by file name or by path, from the given install', () => {
    const set = baseNodeType('Set', { from: BASE_NODES_FROM })
    expect(set.description.name).toBe('set')
    expect(
      baseNodeType('dist/nodes/NoOp/NoOp.node.js', { from: BASE_NODES_FROM }).description.name,
    ).toBe('noOp')
    expect(
      Object.keys(baseNodeTypes(['ManualTrigger', 'SplitOut'], { from: BASE_NODES_FROM })),
    ).toEqual(['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.splitOut'])
  })

  it('says what is missing', () => {
    expect(() => baseNodeType('NoSuchNode', { from: BASE_NODES_FROM })).toThrow(
      'NoSuchNode.node.js',
    )
  })
})

describe('nodeTypesOf', () => {
  it('picks the version of a versioned type and refuses unknown types as n8n does', () => {
    const types = nodeTypesOf({
      'n8n-nodes-base.set': baseNodeType('Set', { from: BASE_NODES_FROM }),
      'x.paykit': getOrderNode,
    })
    expect(types.getByNameAndVersion('n8n-nodes-base.set', 3.4).description.version).toEqual(
      expect.arrayContaining([3.4]),
    )
    expect(types.getByNameAndVersion('n8n-nodes-base.set', 1).description.version).toEqual(
      expect.arrayContaining([1]),
    )
    expect(types.getByNameAndVersion('x.paykit')).toBe(getOrderNode)
    expect(() => types.getByName('x.nope')).toThrow('Unrecognized node type: x.nope')
  })
})
