/**
 * The persistent map behind the simulator's records (tokens, payment methods,
 * authentications, orders): a hash array mapped trie with structural sharing, seen from
 * outside as a plain read-only record.
 *
 * Why: the state is pure (`handle` never changes the state it is given), and a plain
 * record can only be updated purely by copying it whole, so creating the n-th order cost
 * O(n) and the sandbox slowed as orders accumulated. An insert into the trie copies one
 * path of at most 7 nodes of at most 32 entries: O(log32 n) time and memory, whatever
 * the number of entries, and every older state still sees its own entries.
 *
 * Why a record view: readers (tests, the control endpoints, integrators' tests) read
 * `state.orders[code]`, `Object.keys(state.tokens)`, `JSON.stringify(state)`; a read-only
 * `Proxy` over the trie keeps every such read working. The view refuses writes (a
 * `TypeError` in strict mode). The simulator itself goes through {@link lookup},
 * {@link insert} and {@link remove}, which reach the trie without the proxy's traps.
 *
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

const LEAF = 0
const BRANCH = 1
const COLLISION = 2

interface Leaf<A> {
  readonly t: typeof LEAF
  readonly h: number
  readonly k: string
  readonly v: A
}

interface Branch<A> {
  readonly t: typeof BRANCH
  readonly bitmap: number
  readonly children: ReadonlyArray<Node<A>>
}

interface Collision<A> {
  readonly t: typeof COLLISION
  readonly h: number
  readonly leaves: ReadonlyArray<Leaf<A>>
}

type Node<A> = Leaf<A> | Branch<A> | Collision<A>

interface Trie<A> {
  readonly root: Node<A> | undefined
  readonly size: number
}

/**
 * A record backed by the trie: read it as any `Readonly<Record<string, A>>`.
 *
 * @category model
 * @since 0.2.0
 */
export type PersistentRecord<A> = Readonly<Record<string, A>>

// -------------------------------------------------------------------------------------
// trie
// -------------------------------------------------------------------------------------

// FNV-1a, 32 bits.
const hashOf = (key: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

const popcount = (x: number): number => {
  let n = x - ((x >>> 1) & 0x55555555)
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333)
  n = (n + (n >>> 4)) & 0x0f0f0f0f
  return Math.imul(n, 0x01010101) >>> 24
}

const get = <A>(trie: Trie<A>, key: string): A | undefined => {
  const h = hashOf(key)
  let node = trie.root
  let shift = 0
  while (node !== undefined) {
    if (node.t === LEAF) return node.k === key ? node.v : undefined
    if (node.t === COLLISION)
      return node.h === h ? node.leaves.find((l) => l.k === key)?.v : undefined
    const bit = 1 << ((h >>> shift) & 31)
    if ((node.bitmap & bit) === 0) return undefined
    node = node.children[popcount(node.bitmap & (bit - 1))]
    shift += 5
  }
  return undefined
}

// Two nodes of different hashes under one new branch (they part by shift 30 at the latest).
const merge = <A>(a: Leaf<A> | Collision<A>, b: Leaf<A>, shift: number): Branch<A> => {
  const ia = (a.h >>> shift) & 31
  const ib = (b.h >>> shift) & 31
  if (ia === ib) return { t: BRANCH, bitmap: 1 << ia, children: [merge(a, b, shift + 5)] }
  return { t: BRANCH, bitmap: (1 << ia) | (1 << ib), children: ia < ib ? [a, b] : [b, a] }
}

const put = <A>(node: Node<A> | undefined, shift: number, leaf: Leaf<A>): Node<A> => {
  if (node === undefined) return leaf
  if (node.t === LEAF) {
    if (node.k === leaf.k) return leaf
    if (node.h === leaf.h) return { t: COLLISION, h: leaf.h, leaves: [node, leaf] }
    return merge(node, leaf, shift)
  }
  if (node.t === COLLISION) {
    if (node.h !== leaf.h) return merge(node, leaf, shift)
    const i = node.leaves.findIndex((l) => l.k === leaf.k)
    const leaves = node.leaves.slice()
    if (i < 0) leaves.push(leaf)
    else leaves[i] = leaf
    return { t: COLLISION, h: node.h, leaves }
  }
  const bit = 1 << ((leaf.h >>> shift) & 31)
  const i = popcount(node.bitmap & (bit - 1))
  const children = node.children.slice()
  if ((node.bitmap & bit) === 0) {
    children.splice(i, 0, leaf)
    return { t: BRANCH, bitmap: node.bitmap | bit, children }
  }
  children[i] = put(node.children[i], shift + 5, leaf)
  return { t: BRANCH, bitmap: node.bitmap, children }
}

const del = <A>(node: Node<A>, shift: number, h: number, key: string): Node<A> | undefined => {
  if (node.t === LEAF) return node.k === key ? undefined : node
  if (node.t === COLLISION) {
    if (node.h !== h) return node
    const leaves = node.leaves.filter((l) => l.k !== key)
    if (leaves.length === node.leaves.length) return node
    return leaves.length === 1 ? leaves[0] : { t: COLLISION, h, leaves }
  }
  const bit = 1 << ((h >>> shift) & 31)
  if ((node.bitmap & bit) === 0) return node
  const i = popcount(node.bitmap & (bit - 1))
  const child = node.children[i] as Node<A>
  const next = del(child, shift + 5, h, key)
  if (next === child) return node
  const children = node.children.slice()
  if (next === undefined) children.splice(i, 1)
  else children[i] = next
  if (children.length === 0) return undefined
  // A lone leaf (or collision) moves up: lookups find a leaf at any depth.
  const only = children[0] as Node<A>
  if (children.length === 1 && only.t !== BRANCH) return only
  return { t: BRANCH, bitmap: next === undefined ? node.bitmap ^ bit : node.bitmap, children }
}

const each = <A>(node: Node<A> | undefined, f: (leaf: Leaf<A>) => void): void => {
  if (node === undefined) return
  if (node.t === LEAF) f(node)
  else if (node.t === COLLISION) node.leaves.forEach(f)
  else for (const child of node.children) each(child, f)
}

// -------------------------------------------------------------------------------------
// record view
// -------------------------------------------------------------------------------------

// The view answers its trie under this key (module-private: no other code can name it).
const TRIE: unique symbol = Symbol('HashTrie')
const inspect = Symbol.for('nodejs.util.inspect.custom')

const entriesOf = <A>(trie: Trie<A>): Array<readonly [string, A]> => {
  const out: Array<readonly [string, A]> = []
  each(trie.root, (l) => out.push([l.k, l.v]))
  return out
}

const viewOf = <A>(trie: Trie<A>): PersistentRecord<A> => {
  const target: object = {}
  // util.inspect shows a proxy's target: show the entries instead.
  Object.defineProperty(target, inspect, {
    value: () => Object.fromEntries(entriesOf(trie)),
    enumerable: false,
    configurable: true,
  })
  const view = new Proxy(target, {
    get: (t, key, receiver) => {
      if (key === TRIE) return trie
      if (typeof key === 'string') {
        const v = get(trie, key)
        if (v !== undefined) return v
      }
      return Reflect.get(t, key, receiver) as unknown
    },
    has: (t, key) => (typeof key === 'string' && get(trie, key) !== undefined) || key in t,
    ownKeys: () => entriesOf(trie).map(([k]) => k),
    getOwnPropertyDescriptor: (_t, key) => {
      if (typeof key !== 'string') return undefined
      const value = get(trie, key)
      return value === undefined
        ? undefined
        : { value, writable: false, enumerable: true, configurable: true }
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  }) as PersistentRecord<A>
  return view
}

const knownTrie = <A>(record: PersistentRecord<A>): Trie<A> | undefined =>
  (record as unknown as { readonly [TRIE]?: Trie<A> })[TRIE]

const trieOf = <A>(record: PersistentRecord<A>): Trie<A> => {
  const known = knownTrie(record)
  if (known !== undefined) return known
  // A plain record (built by hand): into a trie once.
  let trie: Trie<A> = { root: undefined, size: 0 }
  for (const [k, v] of Object.entries(record))
    trie = { root: put(trie.root, 0, leafOf(k, v)), size: trie.size + 1 }
  return trie
}

const leafOf = <A>(k: string, v: A): Leaf<A> => ({ t: LEAF, h: hashOf(k), k, v })

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A record with no entry.
 *
 * @category constructors
 * @since 0.2.0
 */
export const empty = <A>(): PersistentRecord<A> => viewOf<A>({ root: undefined, size: 0 })

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The entry under `key`, only when the record itself has it (never one of
 * `Object.prototype`'s, so `__proto__` or `constructor` from a request finds nothing).
 *
 * @category destructors
 * @since 0.2.0
 */
export const lookup = <A>(record: PersistentRecord<A>, key: string): A | undefined => {
  const trie = knownTrie(record)
  if (trie !== undefined) return get(trie, key)
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/**
 * How many entries the record has, without listing them.
 *
 * @category destructors
 * @since 0.2.0
 */
export const sizeOf = <A>(record: PersistentRecord<A>): number => trieOf(record).size

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * A record with `value` under `key` (added or replaced); `record` is unchanged.
 *
 * @category combinators
 * @since 0.2.0
 */
export const insert = <A>(
  record: PersistentRecord<A>,
  key: string,
  value: A,
): PersistentRecord<A> => {
  const trie = trieOf(record)
  const had = get(trie, key) !== undefined
  return viewOf({
    root: put(trie.root, 0, leafOf(key, value)),
    size: had ? trie.size : trie.size + 1,
  })
}

/**
 * A record without `key` (the same record when it has no such entry).
 *
 * @category combinators
 * @since 0.2.0
 */
export const remove = <A>(record: PersistentRecord<A>, key: string): PersistentRecord<A> => {
  const trie = trieOf(record)
  if (trie.root === undefined || get(trie, key) === undefined) return record
  return viewOf({ root: del(trie.root, 0, hashOf(key), key), size: trie.size - 1 })
}
