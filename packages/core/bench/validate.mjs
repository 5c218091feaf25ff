// Throughput of `validate(PaymentLinkRequest)` against its peers, on the same inputs:
// io-ts `decode` alone, ajv 8 and zod 4 (`zod/v4`) schemas of the same rules. Runs
// against the built dist (`pnpm run build` first):
//
//   node packages/core/bench/validate.mjs
//
// Prints requests per second of CPU time (the median of 9 rounds, the peers in turn) for valid and
// invalid inputs, and each peer's figure over `validate`'s (the median of the rounds' ratios).
// Figures are relative: compare them within one run only.
/* global URL, structuredClone */
import { createRequire } from 'node:module'
import { validate } from '../dist/model/FieldError.js'
import { PaymentLinkRequest } from '../dist/model/PaymentLink.js'

const require = createRequire(import.meta.url)
const Ajv = require('ajv').default
// zod 3.25 ships zod 4 as the subpath `zod/v4`; it is installed in the testkit.
const requireTestkit = createRequire(new URL('../../testkit/package.json', import.meta.url))
const { z } = await import(requireTestkit.resolve('zod/v4'))

// -------------------------------------------------------------------------------------
// inputs: a deterministic generator
// -------------------------------------------------------------------------------------

let seed = 42
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
const pick = (xs) => xs[Math.floor(rand() * xs.length)]
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1))
const money = () => Math.round(rand() * 100000) / 100

const lineItem = () =>
  rand() < 0.5
    ? { sku: `SKU-${int(1, 9999)}`, quantity: int(1, 10) }
    : {
        product: {
          name: pick(['Shirt', 'Mug', 'Cap', 'Camiseta azul', 'Taza']),
          price: money(),
          ...(rand() < 0.5 ? { imageUrl: `https://img.example.com/p/${int(1, 999)}.png` } : {}),
          ...(rand() < 0.3 ? { requiresShipping: rand() < 0.5 } : {}),
        },
        quantity: int(1, 5),
      }

const validRequest = (i) => {
  const withItems = i % 3 !== 0
  return {
    orderName: `Order ${i}`,
    orderReference: `INV-${100000 + i}`,
    ...(i % 2 === 0 ? { orderDescription: i % 4 === 0 ? null : `Description of order ${i}` } : {}),
    ...(withItems ? {} : { amount: money() + 1 }),
    ...(withItems ? { lineItems: Array.from({ length: int(1, 4) }, lineItem) } : {}),
    expirationMinutes: int(1, 10080),
    successUrl: `https://shop.example.com/ok?order=${i}`,
    cancelUrl: `https://shop.example.com/cancel?order=${i}`,
    locationCode: pick(['SJO', 'HER', 'LIB']),
    metadata: Array.from({ length: int(0, 3) }, (_, k) => ({ name: `k${k}`, value: `v${i}` })),
  }
}

const breakers = [
  (r) => ({ ...r, amount: -5, lineItems: undefined }),
  (r) => ({ ...r, amount: undefined, lineItems: [] }),
  (r) => ({ ...r, orderName: 'x'.repeat(300) }),
  (r) => ({ ...r, expirationMinutes: 0 }),
  (r) => ({ ...r, successUrl: 'ftp://nope' }),
  (r) => ({ ...r, lineItems: [{ quantity: 1 }] }),
  (r) => ({ ...r, lineItems: [{ sku: 'A', quantity: 1.5 }] }),
  (r) => ({ ...r, lineItems: [{ product: { name: '', price: -1 }, quantity: 1 }] }),
  (r) => ({ ...r, metadata: [{ name: 'k' }] }),
  (r) => ({ ...r, amount: undefined, lineItems: undefined }),
]

const N = 300
const valid = Array.from({ length: N }, (_, i) => validRequest(i))
const invalid = valid.map((r, i) =>
  Object.fromEntries(
    Object.entries(breakers[i % breakers.length](r)).filter(([, v]) => v !== undefined),
  ),
)

// -------------------------------------------------------------------------------------
// peers: the same rules as JSON Schema (ajv 8) and zod 4
// -------------------------------------------------------------------------------------

const httpUrl = { type: 'string', pattern: '^https?://[^\\s/?#]+[^\\s]*$' }
const productSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'price'],
  properties: {
    name: { type: 'string', minLength: 1, pattern: '\\S' },
    price: { type: 'number', minimum: 0 },
    requiresShipping: { type: 'boolean', default: false },
    imageUrl: { type: 'string', maxLength: 512 },
  },
}
const schema = {
  type: 'object',
  additionalProperties: false,
  anyOf: [{ required: ['amount'] }, { required: ['lineItems'] }],
  properties: {
    orderName: { type: 'string', maxLength: 255, default: 'PaymentLink Order' },
    expirationMinutes: { type: 'integer', exclusiveMinimum: 0, default: 1440 },
    orderReference: { type: 'string', maxLength: 255 },
    orderDescription: { type: ['string', 'null'], maxLength: 2048 },
    amount: { type: 'number', exclusiveMinimum: 0 },
    lineItems: {
      type: 'array',
      minItems: 1,
      items: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['sku', 'quantity'],
            properties: {
              sku: { type: 'string', minLength: 1, pattern: '\\S' },
              quantity: { type: 'integer', exclusiveMinimum: 0 },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['product', 'quantity'],
            properties: {
              product: productSchema,
              quantity: { type: 'integer', exclusiveMinimum: 0 },
            },
          },
        ],
      },
    },
    successUrl: httpUrl,
    cancelUrl: httpUrl,
    locationCode: { type: 'string' },
    metadata: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'value'],
        properties: { name: { type: 'string' }, value: { type: 'string' } },
      },
    },
  },
}
// allErrors: every broken field is reported, as `validate` does. strict off: ajv ignores
// a default under `oneOf` (requiresShipping) and would refuse to compile otherwise.
const ajvValidate = new Ajv({ allErrors: true, useDefaults: true, strict: false }).compile(schema)

const nonBlank = z.string().refine((s) => s.trim().length > 0, 'must not be empty')
const zHttpUrl = z.url({ protocol: /^https?$/ })
const zProduct = z.object({
  name: nonBlank,
  price: z.number().min(0),
  requiresShipping: z.boolean().default(false),
  imageUrl: z.string().max(512).optional(),
})
const zLineItem = z.union([
  z.object({ sku: nonBlank, quantity: z.int().positive() }),
  z.object({ product: zProduct, quantity: z.int().positive() }),
])
const zodSchema = z
  .object({
    orderName: z.string().max(255).default('PaymentLink Order'),
    expirationMinutes: z.int().positive().default(1440),
    orderReference: z.string().max(255).optional(),
    orderDescription: z.string().max(2048).nullable().optional(),
    amount: z.number().positive().optional(),
    lineItems: z.array(zLineItem).min(1).optional(),
    successUrl: zHttpUrl.optional(),
    cancelUrl: zHttpUrl.optional(),
    locationCode: z.string().optional(),
    metadata: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  })
  .refine((r) => r.amount !== undefined || r.lineItems !== undefined, {
    message: 'amount or lineItems is required (give at least one)',
  })

// -------------------------------------------------------------------------------------
// measurement
// -------------------------------------------------------------------------------------

const paykit = validate(PaymentLinkRequest)
const ioTs = (u) => PaymentLinkRequest.decode(u)
// BENCH_ONLY=validate (a comma-separated list) runs only those, e.g. under --cpu-prof.
const only = process.env.BENCH_ONLY?.split(',')
const peers = [
  ['validate', (u) => paykit(u)._tag === 'Right'],
  ['io-ts decode', (u) => ioTs(u)._tag === 'Right'],
  ['ajv 8', (u) => ajvValidate(u)],
  ['zod 4', (u) => zodSchema.safeParse(u).success],
].filter(([name]) => only === undefined || only.includes(name))

// Every peer must agree on which inputs are valid, else the comparison is meaningless.
for (const [name, run] of peers) {
  const ok = valid.filter((u) => run(structuredClone(u))).length
  const bad = invalid.filter((u) => !run(structuredClone(u))).length
  if (ok !== N || bad !== N) {
    console.error(`${name}: accepts ${ok}/${N} valid and refuses ${bad}/${N} invalid inputs`)
    process.exit(1)
  }
}

// CPU time of this process, in ms: other processes on a busy machine do not count.
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const perSecond = (run, inputs, ms) => {
  let count = 0
  let sink = 0
  const start = cpuMs()
  let elapsed = 0
  while (elapsed < ms) {
    for (let i = 0; i < inputs.length; i++) sink += run(inputs[i]) ? 1 : 0
    count += inputs.length
    elapsed = cpuMs() - start
  }
  if (sink < 0) console.log(sink)
  return (count * 1000) / elapsed
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const MS = Number(process.env.BENCH_MS ?? 1000)
// Rounds of MS / 3 per peer, the peers' order rotating from round to round; a ratio is the
// median over the rounds of the two peers' figures in the same round, so that a change of
// the machine's speed (another process, a frequency step) weighs on both sides of it.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9)

const results = {}
const ratios = {}
// BENCH_KIND=valid (or invalid) measures one kind only.
const kinds = [
  ['valid', valid],
  ['invalid', invalid],
].filter(([kind]) => process.env.BENCH_KIND === undefined || process.env.BENCH_KIND === kind)
for (const [kind, inputs] of kinds) {
  for (const [, run] of peers) perSecond(run, inputs, MS / 4) // warm up
  const rounds = []
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {}
    for (let i = 0; i < peers.length; i++) {
      const [name, run] = peers[(round + i) % peers.length]
      figures[name] = perSecond(run, inputs, MS / 3)
    }
    rounds.push(figures)
  }
  results[kind] = Object.fromEntries(
    peers.map(([name]) => [name, median(rounds.map((f) => f[name]))]),
  )
  ratios[kind] = Object.fromEntries(
    peers.map(([name]) => [
      name,
      rounds[0]['validate'] === undefined
        ? undefined
        : median(rounds.map((f) => f[name] / f['validate'])),
    ]),
  )
}

const fmt = (n) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k/s` : `${n}/s`
console.log(
  `validate(PaymentLinkRequest): ${N} valid and ${N} invalid requests, median of ${ROUNDS} rounds (ratios: median of the rounds' ratios)`,
)
for (const [kind] of kinds) {
  const r = results[kind]
  console.log(`\n${kind}:`)
  for (const [name] of peers) {
    const ratio =
      ratios[kind][name] === undefined ? '' : `${ratios[kind][name].toFixed(2)}x validate`
    console.log(`  ${name.padEnd(13)} ${fmt(r[name]).padStart(11)}   ${ratio}`)
  }
}
