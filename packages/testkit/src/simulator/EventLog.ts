/**
 * The simulator's order events, bounded: the last `eventLogSize` are kept (default 1000),
 * plus every event of the latest step, so that the adapters can hand each new event to
 * the webhooks even when one clock advance expires more orders than the log holds.
 *
 * Appending is O(1) amortized without copying: versions share one array, and a version
 * appends in place only when it is the one that owns the array's end (the next writer
 * copies). Older states keep seeing exactly their own events.
 *
 * @since 0.2.0
 */
import type { WebhookEvent } from '@paykit/core/pure'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An immutable, bounded log of events.
 *
 * @category model
 * @since 0.2.0
 */
export class EventLog {
  readonly #buf: Array<WebhookEvent>
  readonly #end: number
  /** How many events were dropped before `#buf[0]`. */
  readonly #dropped: number

  private constructor(buf: Array<WebhookEvent>, end: number, dropped: number) {
    this.#buf = buf
    this.#end = end
    this.#dropped = dropped
  }

  /**
   * A log with no event.
   *
   * @category constructors
   * @since 0.2.0
   */
  static empty(): EventLog {
    return new EventLog([], 0, 0)
  }

  /**
   * How many events were ever appended (dropped ones included).
   *
   * @category destructors
   * @since 0.2.0
   */
  get total(): number {
    return this.#dropped + this.#end
  }

  /**
   * The log with `event` appended.
   *
   * @category combinators
   * @since 0.2.0
   */
  append(event: WebhookEvent): EventLog {
    if (this.#buf.length === this.#end) {
      this.#buf.push(event)
      return new EventLog(this.#buf, this.#end + 1, this.#dropped)
    }
    const buf = this.#buf.slice(0, this.#end)
    buf.push(event)
    return new EventLog(buf, buf.length, this.#dropped)
  }

  /**
   * The log holding at most the last `2 * size` events (trimmed to the last `size` once
   * it passes `2 * size`, so trimming costs O(1) amortized per event).
   *
   * @category combinators
   * @since 0.2.0
   */
  trim(size: number): EventLog {
    if (this.#end <= 2 * size) return this
    const keep = this.#buf.slice(this.#end - size, this.#end)
    return new EventLog(keep, keep.length, this.#dropped + this.#end - size)
  }

  /**
   * The last `size` events, oldest first.
   *
   * @category destructors
   * @since 0.2.0
   */
  last(size: number): ReadonlyArray<WebhookEvent> {
    return this.#buf.slice(Math.max(0, this.#end - size), this.#end)
  }

  /**
   * The events appended after the `total`-th, oldest first (those still held).
   *
   * @category destructors
   * @since 0.2.0
   */
  since(total: number): ReadonlyArray<WebhookEvent> {
    return total >= this.total ? [] : this.#buf.slice(Math.max(0, total - this.#dropped), this.#end)
  }

  /** The held events, as an array. */
  toJSON(): ReadonlyArray<WebhookEvent> {
    return this.#buf.slice(0, this.#end)
  }
}
