import "server-only";

/**
 * A fixed-capacity ring of the most recent events, indexed by a dense, monotonically increasing sequence number
 * (1, 2, 3, …). Lets an SSE client resume from the last event it saw, as long as that event is still in the ring.
 */
export class ReplayBuffer<T> {
  private readonly items: (T | undefined)[];
  /** Sequence number of the newest item; 0 = empty. */
  private headSeq = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
    this.items = new Array<T | undefined>(capacity);
  }

  /** Appends an item and returns its sequence number. */
  push(item: T): number {
    this.headSeq += 1;
    this.items[this.headSeq % this.capacity] = item;
    return this.headSeq;
  }

  /** Sequence number of the newest item (0 when nothing was pushed yet). */
  get head(): number {
    return this.headSeq;
  }

  /** Sequence number of the oldest item still held (head + 1 when empty). */
  get oldest(): number {
    return Math.max(1, this.headSeq - this.capacity + 1);
  }

  get size(): number {
    return Math.min(this.headSeq, this.capacity);
  }

  /**
   * Items after `seq`, oldest first. `too_old` when some item after `seq` was already overwritten;
   * `ahead` when `seq` is beyond the head (a cursor this buffer never issued).
   */
  since(
    seq: number,
  ): { ok: true; items: { seq: number; item: T }[] } | { ok: false; reason: "too_old" | "ahead" } {
    if (seq > this.headSeq) return { ok: false, reason: "ahead" };
    if (seq + 1 < this.oldest) return { ok: false, reason: "too_old" };
    const out: { seq: number; item: T }[] = [];
    for (let s = seq + 1; s <= this.headSeq; s += 1) {
      out.push({ seq: s, item: this.items[s % this.capacity] as T });
    }
    return { ok: true, items: out };
  }
}
