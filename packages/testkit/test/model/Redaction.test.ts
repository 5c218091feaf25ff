/**
 * One redaction for every text the kit prints or throws. A property plants the secrets an
 * integration holds (the buyer's card number and CVV, the client secret, an access token
 * it was issued) in every place an integration can put text (a thrown message, a `cause`
 * chain, its log, its view's references and statuses, a webhook answer, a throwing
 * webhook route or view) and checks that none reaches the report, the story, the error a
 * story rejects with (message, stack, causes) or fast-check's failure as vitest prints it
 * (`fc.assert`, which `@fast-check/vitest` runs: the counterexample line and its cause).
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createClient } from '@paykit/core'
import { fixedCheckout } from '../../examples/checkout/checkoutService.js'
import type { BuyerCard, MakeIntegration } from '../../src/model/Integration.js'
import { checkModel, stories } from '../../src/model/Run.js'
import { buyerPaysLink, createLink, payOrder, webhook } from '../../src/model/Steps.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

const KINDS = ['card number', 'CVV', 'client secret', 'access token'] as const
type Kind = (typeof KINDS)[number]
const PLACES = [
  'payOrder throws',
  'createLink throws',
  'reconcile throws',
  'a cause throws',
  'log',
  'view reference',
  'view status',
  'view throws',
  'webhook answer',
  'webhook throws',
] as const
type Place = (typeof PLACES)[number]

interface Plant {
  readonly place: Place
  readonly kind: Kind
  readonly before: string
  readonly after: string
}

// Text around a secret, kept apart from it by a space (a CVV is a secret where it stands
// alone, not inside a longer number).
const around = fc.string({ maxLength: 150, unit: 'binary-ascii' })
const plantArb: fc.Arbitrary<Plant> = fc.record({
  place: fc.constantFrom(...PLACES),
  kind: fc.constantFrom(...KINDS),
  before: around,
  after: fc.string({ maxLength: 20, unit: 'binary-ascii' }),
})

/** The fixed checkout with `plants` put where they say; `planted` collects what it planted. */
const planting =
  (plants: ReadonlyArray<Plant>, planted: Set<string>): MakeIntegration =>
  (context) => {
    const inner = fixedCheckout(context)
    const client = createClient(context.clientConfig)
    let card: BuyerCard | undefined
    let token: string | undefined
    const lines: Array<string> = []
    const secretOf = (kind: Kind): string => {
      const [given, issued] = [card, token]
      const secret =
        kind === 'card number' && given !== undefined
          ? given.number
          : kind === 'CVV' && given !== undefined
            ? given.cvv
            : kind === 'access token' && issued !== undefined
              ? issued
              : (context.clientConfig.credentials.clientSecret ?? defaultCredentials.clientSecret)
      planted.add(secret)
      return secret
    }
    const text = (p: Plant): string => `${p.before} ${secretOf(p.kind)} ${p.after}`
    const at = (place: Place): ReadonlyArray<Plant> => plants.filter((p) => p.place === place)
    const learn = async (): Promise<void> => {
      if (token !== undefined) return
      const issued = await client.getToken()()
      if (E.isRight(issued)) token = issued.right
    }
    const throwing = async (place: Place, work: () => Promise<void>): Promise<void> => {
      await learn()
      for (const p of at(place)) throw new Error(text(p))
      for (const p of at('a cause throws'))
        throw new Error('the order could not be saved', {
          cause: new Error('the database refused', { cause: new Error(text(p)) }),
        })
      return work()
    }
    return {
      payOrder: async (order, given) => {
        card = given
        return throwing('payOrder throws', () => inner.payOrder(order, given))
      },
      createLink: (order) => throwing('createLink throws', () => inner.createLink(order)),
      reconcile: (reference) => throwing('reconcile throws', () => inner.reconcile(reference)),
      handleWebhook: async (body, headers) => {
        await learn()
        for (const p of at('webhook throws')) throw new Error(text(p))
        for (const p of at('webhook answer')) return { status: 500, body: text(p) }
        return inner.handleWebhook(body, headers)
      },
      view: () => {
        for (const p of at('view throws')) throw new Error(text(p))
        return [
          ...inner.view(),
          ...at('view reference').map((p) => ({
            reference: text(p),
            status: 'PAID',
            timesPaid: 1,
          })),
          ...at('view status').map((p) => ({ reference: 'o1', status: text(p), timesPaid: 0 })),
        ]
      },
      log: () => {
        for (const p of at('log')) lines.push(text(p))
        return [...inner.log(), ...lines]
      },
    }
  }

/** Every text of an error: name, message, stack, `String()`, and its causes'. */
const textsOf = (e: unknown, depth = 0): ReadonlyArray<string> => {
  if (!(e instanceof Error) || depth > 10) return [String(e)]
  return [
    e.name,
    e.message,
    e.stack ?? '',
    String(e),
    ...('cause' in e ? textsOf(e.cause, depth + 1) : []),
  ]
}

const leaked = (texts: ReadonlyArray<string>, secrets: ReadonlySet<string>): string | undefined => {
  for (const secret of secrets) {
    const pattern = /^\d+$/.test(secret)
      ? new RegExp(`(?<!\\d)${secret}(?!\\d)`)
      : { test: (t: string) => t.includes(secret) }
    const found = texts.find((t) => pattern.test(t))
    if (found !== undefined) return `${secret} in ${JSON.stringify(found)}`
  }
  return undefined
}

// Each story starts with a card payment and a paid link, so every place is reached.
const opening = [
  payOrder('o1', 'success'),
  createLink('o2'),
  buyerPaysLink('o2'),
  webhook('deliverNext'),
]

describe('one redaction for every text the kit prints or throws', () => {
  it(
    'no planted secret reaches a report, a story, an error or its causes',
    { timeout: 120_000 },
    async () => {
      let runs = 0
      const places = new Set<Place>()
      await fc.assert(
        fc.asyncProperty(
          fc.array(plantArb, { minLength: 1, maxLength: 3 }),
          fc.integer({ min: 1, max: 1000 }),
          async (plants, seed) => {
            runs++
            for (const p of plants) places.add(p.place)
            const planted = new Set<string>()
            const integration = planting(plants, planted)
            // the runner, on a story written by hand
            const [drawn] = fc.sample(stories({ integration, maxSteps: 4 }), { numRuns: 1, seed })
            const story = [...opening, ...(drawn?.steps ?? [])]
            const report = await checkModel({ integration, story })
            expect(report.ok).toBe(false)
            // the vitest form: the story's own rejection, and fast-check's failure
            const rejected = await (drawn?.play() ?? Promise.resolve()).then(
              () => undefined,
              (e: unknown) => e,
            )
            const asserted = await fc
              .assert(
                fc.asyncProperty(stories({ integration, maxSteps: 3 }), (s) => s.play()),
                {
                  numRuns: 5,
                  seed,
                },
              )
              .then(
                () => undefined,
                (e: unknown) => e,
              )
            const texts = [
              report.text,
              report.problem ?? '',
              report.invariant ?? '',
              ...report.story,
              ...(rejected === undefined ? [] : textsOf(rejected)),
              ...(asserted === undefined ? [] : textsOf(asserted)),
            ]
            expect(planted.size).toBeGreaterThan(0)
            expect(leaked(texts, planted)).toBeUndefined()
          },
        ),
        { numRuns: 150, seed: 27 },
      )
      expect(runs).toBe(150)
      expect([...places].sort()).toEqual([...PLACES].sort())
    },
  )

  it("the story quotes what the integration threw, redacted (the issue's example)", async () => {
    const report = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        payOrder: async (order, card) => {
          throw new Error(`order ${order.reference}: card ${card.number} was not charged`)
        },
      }),
      story: [payOrder('o1', 'declined')],
    })
    expect(report.problem).toBe(
      'the integration logged a secret or card datum: "order o1: card [redacted] was not charged"',
    )
    expect(report.story).toEqual([
      'the buyer pays order o1 with a declined card: the integration threw "order o1: card [redacted] was not charged"',
    ])
    expect(report.text).not.toContain('4000000000000002')
  })

  it('a CVV logged is redacted whole (it was shown as its first four characters, all of it)', async () => {
    const report = await checkModel({
      integration: (context) => {
        const lines: Array<string> = []
        return {
          ...fixedCheckout(context),
          payOrder: async (_order, card) => void lines.push(`cvv ${card.cvv} given`),
          log: () => lines,
        }
      },
      story: [payOrder('o1', 'success')],
    })
    expect(report.problem).toBe(
      'the integration logged a secret or card datum: "cvv [redacted] given"',
    )
  })
})
