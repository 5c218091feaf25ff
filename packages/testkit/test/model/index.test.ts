/**
 * The entry's surface: five runtime names (27 before issue 27), the steps and the
 * built-in invariants under their namespaces.
 */
import { describe, expect, it } from 'vitest'
import * as model from '../../src/model/index.js'

describe('@paykit/testkit/model', () => {
  it('exports one runner, one arbitrary, two namespaces and the error a story throws', () => {
    expect(Object.keys(model).sort()).toEqual([
      'InvariantBroken',
      'Invariants',
      'Steps',
      'checkModel',
      'stories',
    ])
    expect(Object.keys(model.Steps).sort()).toEqual([
      'advanceClock',
      'buyerPaysLink',
      'clearFaults',
      'createLink',
      'forgedWebhook',
      'injectFault',
      'latency',
      'payOrder',
      'portal',
      'reconcile',
      'threeDsEnding',
      'webhook',
    ])
    expect(Object.keys(model.Invariants).sort()).toEqual([
      'amountsAsOrdered',
      'builtInInvariants',
      'noForgedChange',
      'noOrderChargedTwice',
      'noSecretLogged',
      'oneLinkPerOrder',
      'paidAmountRecorded',
      'paidSeenOnce',
      'statusesHad',
      'timesPaidAtService',
      'viewAgrees',
    ])
  })
})
