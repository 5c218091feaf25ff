/**
 * The simulator's deadlines ordered by time: when an order's link expires, when an order
 * or a token is dropped, when a 3DS authentication expires. Expiry takes the due ones
 * from the front instead of scanning every record, so a request costs the same with
 * 100,000 orders stored as with none.
 *
 * A persistent leftist heap (Okasaki): adding and taking the earliest are O(log n) and
 * share structure, so an older state keeps its own index. Its nodes are hidden from
 * `JSON.stringify` and deep equality (only `size` shows), as they are an index, not data.
 *
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What falls due: an order's link expires (`expireOrder`), an order is dropped after the
 * retention window (`dropOrder`), a PENDING authentication expires
 * (`expireAuthentication`), an expired token is dropped (`dropToken`).
 *
 * @category model
 * @since 0.2.0
 */
export type DeadlineKind = 'expireOrder' | 'dropOrder' | 'expireAuthentication' | 'dropToken'

/**
 * One deadline: at `atMs` (simulator time), `kind` falls due for the record under `key`.
 * Deadlines of the same time come out by `seq` (the record's number).
 *
 * @category model
 * @since 0.2.0
 */
export interface Deadline {
  readonly atMs: number
  readonly seq: number
  readonly kind: DeadlineKind
  readonly key: string
}

interface Heap {
  readonly d: Deadline
  readonly rank: number
  readonly left: Heap | undefined
  readonly right: Heap | undefined
}

const before = (a: Deadline, b: Deadline): boolean =>
  a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq)

const rankOf = (h: Heap | undefined): number => (h === undefined ? 0 : h.rank)

// Recurses along right spines only: O(log n) deep.
const meld = (a: Heap | undefined, b: Heap | undefined): Heap | undefined => {
  if (a === undefined) return b
  if (b === undefined) return a
  const [x, y] = before(b.d, a.d) ? [b, a] : [a, b]
  const merged = meld(x.right, y)
  return rankOf(x.left) >= rankOf(merged)
    ? { d: x.d, rank: rankOf(merged) + 1, left: x.left, right: merged }
    : { d: x.d, rank: rankOf(x.left) + 1, left: merged, right: x.left }
}

/**
 * The deadlines, earliest first. Immutable: `add` and `takeDue` return new indexes.
 *
 * @category model
 * @since 0.2.0
 */
export class TimeIndex {
  readonly #heap: Heap | undefined
  /** How many deadlines are pending. */
  readonly size: number

  private constructor(heap: Heap | undefined, size: number) {
    this.#heap = heap
    this.size = size
  }

  /**
   * An index with no deadline.
   *
   * @category constructors
   * @since 0.2.0
   */
  static readonly empty: TimeIndex = new TimeIndex(undefined, 0)

  /**
   * The index with `deadline` added.
   *
   * @category combinators
   * @since 0.2.0
   */
  add(deadline: Deadline): TimeIndex {
    return new TimeIndex(
      meld(this.#heap, { d: deadline, rank: 1, left: undefined, right: undefined }),
      this.size + 1,
    )
  }

  /**
   * The deadlines due at `atMs` (at or before it), earliest first, and the index without
   * them. Costs O(1) when none is due.
   *
   * @category combinators
   * @since 0.2.0
   */
  takeDue(atMs: number): readonly [ReadonlyArray<Deadline>, TimeIndex] {
    let heap = this.#heap
    if (heap === undefined || heap.d.atMs > atMs) return [[], this]
    const due: Array<Deadline> = []
    while (heap !== undefined && heap.d.atMs <= atMs) {
      due.push(heap.d)
      heap = meld(heap.left, heap.right)
    }
    return [due, new TimeIndex(heap, this.size - due.length)]
  }

  /** Only the size shows in JSON. */
  toJSON(): { readonly size: number } {
    return { size: this.size }
  }
}
