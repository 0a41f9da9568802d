/**
 * The book's order handles: what `place`/`restore` hand out for a resting order and what `cancel`, `get`
 * and fills use instead of string ids, so the book hashes and compares no strings at all.
 *
 * A handle is `generation × HANDLE_STRIDE + index`: `index` picks an entry of this table (a dense, recycled
 * small integer), the entry holds the order's slot in the book's storage and the index's current
 * generation. Releasing an index (its order filled, cancelled) bumps the generation, so a handle kept
 * after its order left the book names no order, even once the index serves another order: it can never
 * be confused with a live order's handle. That keeps a stale cancel (a race with a fill, a retry) as
 * harmless as an unknown id was, without asking every caller to forget handles at exactly the right time.
 * Handles are safe integers (index < 2^23, generation < 2^30); an index whose generation would overflow is
 * retired, never reused.
 *
 * Why a table and not handle = slot: the book repacks its order storage after a flood drains (moving
 * orders to new slots); the table absorbs the move, the caller's handles stay valid.
 *
 * Layout: one Int32Array of (slot, generation) pairs, 8 bytes per index, so a lookup is one cache line and
 * nothing in it is traced by the garbage collector. A free index's slot field links the free list
 * (−2 − next free index; −1 ends it). Indices are reused last-in first-out, so a new order usually lands on
 * an entry that is still cached. When most indices are free, the table trims its free tail (see `maybeTrim`)
 * so a book does not keep a table sized for its busiest moment.
 */
const INDEX_BITS = 23;
/** Handles are generation × HANDLE_STRIDE + index. */
export const HANDLE_STRIDE = 2 ** INDEX_BITS;
/** Largest generation: handles stay below 2^53 (safe integers). */
const MAX_GENERATION = 2 ** 30 - 1;
const MIN_CAPACITY = 64;
/** A table at least this large is considered for trimming when fewer than an eighth of its indices are live. */
const TRIM_MIN_CAPACITY = 4_096;
const END = -1;
/** Slot field of a retired index (generation exhausted): never live, never on the free list. */
const RETIRED = -2 - HANDLE_STRIDE;

/** The index part of a handle: dense and small (below the highest number of orders the book held at once), unique among live handles. */
export function handleIndex(handle: number): number {
  return handle % HANDLE_STRIDE;
}

export class HandleTable {
  /** Pairs: e[2i] the slot of index i's order (≥ 0 live) or its free-list link, e[2i + 1] its generation. */
  private e = new Int32Array(MIN_CAPACITY * 2);
  /** Indices handed out so far: 0 … top − 1 exist. */
  private top = 0;
  private freeHead = END;
  private live = 0;
  /** Generation a brand-new index starts at: above every generation a trimmed-away index had reached. */
  private floor = 0;
  /** Releases until the next trim attempt (an attempt costs a pass over the table: amortised). */
  private trimCountdown = TRIM_MIN_CAPACITY;

  /** @param maxGeneration overridable so tests can reach generation overflow. */
  constructor(private readonly maxGeneration = MAX_GENERATION) {}

  /** Number of live handles. */
  get size(): number {
    return this.live;
  }

  /** Indices handed out (live, free or retired): 0 … indexCount − 1. */
  get indexCount(): number {
    return this.top;
  }

  /** Length of the table in indices. */
  get capacity(): number {
    return this.e.length >> 1;
  }

  /** Throws unless `issue` can hand out one more index (a book of 2^23 resting orders is full). */
  assertRoom(): void {
    if (this.freeHead === END && (this.top === HANDLE_STRIDE || this.floor > this.maxGeneration)) {
      throw new RangeError(`the book holds ${this.live} orders and has no order handle left (at most ${HANDLE_STRIDE} orders rest on one book): order refused`);
    }
  }

  /** Puts the order at `slot` under a free index and returns the index (its handle: `handleAt`). */
  issue(slot: number): number {
    const e = this.e;
    let i = this.freeHead;
    if (i !== END) {
      this.freeHead = -2 - e[i << 1]!;
      e[i << 1] = slot;
      this.live++;
      return i;
    }
    i = this.top;
    this.assertRoom();
    if (i << 1 === e.length) this.resize(this.capacity * 2);
    this.top = i + 1;
    this.e[i << 1] = slot;
    this.e[(i << 1) + 1] = this.floor;
    this.live++;
    return i;
  }

  /** The index of a live handle, or −1 when `handle` names no order on the book (stale, never issued, not a handle). */
  indexOf(handle: number): number {
    if (typeof handle !== 'number') return -1;
    const gen = Math.floor(handle / HANDLE_STRIDE);
    const i = handle - gen * HANDLE_STRIDE;
    if (!(i >= 0 && i < this.top) || (i | 0) !== i) return -1;
    const e = this.e;
    return e[(i << 1) + 1] === gen && e[i << 1]! >= 0 ? i : -1;
  }

  /** The slot of a live handle's order, or −1 when `handle` names no order on the book. */
  slotOf(handle: number): number {
    const i = this.indexOf(handle);
    return i < 0 ? -1 : this.e[i << 1]!;
  }

  /** Takes a live index out of service (its order left the book): its handle is dead from now on. */
  releaseIndex(i: number): void {
    const e = this.e;
    const gen = e[(i << 1) + 1]! + 1;
    this.live--;
    if (gen > this.maxGeneration) {
      e[i << 1] = RETIRED;
    } else {
      e[(i << 1) + 1] = gen;
      e[i << 1] = -2 - this.freeHead;
      this.freeHead = i;
    }
    if (--this.trimCountdown <= 0) this.maybeTrim();
  }

  /** Points a live index at the order's new slot (the book moved it). */
  moveIndex(i: number, slot: number): void {
    this.e[i << 1] = slot;
  }

  /** The slot field of index i (≥ 0: live, pointing at that slot), for invariant checks. */
  slotAt(i: number): number {
    return this.e[i << 1]!;
  }

  /** Overwrites the slot field of index i: only for tests that corrupt a book on purpose. */
  setSlotAt(i: number, slot: number): void {
    this.e[i << 1] = slot;
  }

  generationAt(i: number): number {
    return this.e[(i << 1) + 1]!;
  }

  /** The handle of live index i. */
  handleAt(i: number): number {
    return this.e[(i << 1) + 1]! * HANDLE_STRIDE + i;
  }

  /** The free list, in reuse order; throws on a cycle or a link out of range (for invariant checks). */
  freeIndices(): number[] {
    const out: number[] = [];
    for (let i = this.freeHead; i !== END; i = -2 - this.e[i << 1]!) {
      if (!(i >= 0 && i < this.top)) throw new Error(`free list links to index ${i}, outside the ${this.top} handed out`);
      if (out.length > this.top) throw new Error('free list has a cycle');
      out.push(i);
    }
    return out;
  }

  /** Whether index i is retired (its generations used up). */
  isRetired(i: number): boolean {
    return this.e[i << 1] === RETIRED;
  }

  /**
   * When fewer than an eighth of a large table's indices are live: drops the free indices above the
   * highest live one and shrinks the table to fit, then relinks the free list lowest index first, so new
   * orders fill the bottom and the top can drain for the next trim. Dropped indices' generations are
   * remembered through `floor`, so a handle that once named one never names a later order.
   */
  private maybeTrim(): void {
    const capacity = this.capacity;
    this.trimCountdown = capacity >> 1;
    if (capacity < TRIM_MIN_CAPACITY || this.live * 8 >= capacity) return;
    const e = this.e;
    let top = this.top;
    while (top > 0 && e[(top - 1) << 1]! < 0) {
      top--;
      const reached = e[(top << 1) + 1]! + (e[top << 1] === RETIRED ? 1 : 0);
      if (reached > this.floor) this.floor = reached;
    }
    this.top = top;
    let size = MIN_CAPACITY;
    while (size < top || size < this.live * 2) size *= 2;
    if (size < capacity) this.resize(size);
    const t = this.e;
    this.freeHead = END;
    for (let i = top - 1; i >= 0; i--) {
      if (t[i << 1]! >= 0 || t[i << 1] === RETIRED) continue;
      t[i << 1] = -2 - this.freeHead;
      this.freeHead = i;
    }
  }

  private resize(capacity: number): void {
    const e = new Int32Array(capacity * 2);
    e.set(this.e.subarray(0, Math.min(this.e.length, capacity * 2)));
    this.e = e;
  }
}
