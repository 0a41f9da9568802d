/**
 * The book's id → order-slot index: an open-addressing hash table (linear probing, backward-shift deletion, no
 * tombstones) held entirely in one Int32Array of (hash, slot) pairs. The table stores no keys: the id of slot s
 * is `ids[s]`, the book's own id array, so an entry is one 8-byte pair in a typed array the garbage collector
 * never traces, and inserting one is a plain store (no write barrier, unlike storing a string in a JS array).
 *
 * Why not a Map: a lookup that misses (every new order's duplicate check) walks a V8 Map bucket chain and
 * compares the id with each chained key, which reads every one of those key strings; in a book of tens of
 * thousands of orders those strings are cold, so each compare is a cache miss. Here a probe compares stored
 * hashes (contiguous) and reads a key only when its full hash matches, i.e. almost only the key sought.
 *
 * Callers on the hot path hash an id once (`hashOf`) and pass the hash to `find`/`insertAt`/`removeAt`.
 * `get`/`has`/`set`/`delete`/`size` give the Map shape for everything else (invariant checks, tests).
 */
const MIN_CAPACITY = 16;
/** Hash at most this many trailing characters: ids are engine-made ULIDs, whose last 16 are the random part (ids
 * sharing a long tail would only probe longer, never be confused: keys are compared in full). */
const HASHED_CHARS = 16;

export class SlotIndex {
  /** Pairs: table[2i] the entry's hash (0 = empty; stored hashes are forced odd), table[2i + 1] its slot. */
  private table = new Int32Array(MIN_CAPACITY * 2);
  private mask = MIN_CAPACITY - 1;
  private count = 0;
  /** Bumped whenever entries move (removal, rehash): an empty slot found before is still right if it did not change. */
  private moves = 0;

  /** @param ids the owner's slot → id array; the owner replaces it here whenever it replaces the array. */
  constructor(public ids: readonly string[]) {}

  get size(): number {
    return this.count;
  }

  /** FNV-1a over the id's last HASHED_CHARS characters and its length, then a murmur-style finaliser. */
  static hashOf(id: string): number {
    const n = id.length;
    let h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
    for (let i = n > HASHED_CHARS ? n - HASHED_CHARS : 0; i < n; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    return h | 1;
  }

  /** Table position of `id` (hashed to `h`), or, when absent, −1 − the empty position where it would go. */
  find(id: string, h: number): number {
    const table = this.table;
    const ids = this.ids;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const x = table[i << 1]!;
      if (x === 0) return -1 - i;
      if (x === h && ids[table[(i << 1) + 1]!] === id) return i;
      i = (i + 1) & mask;
    }
  }

  /** The slot at a position `find` returned (non-negative). */
  valueAt(at: number): number {
    return this.table[(at << 1) + 1]!;
  }

  setValueAt(at: number, slot: number): void {
    this.table[(at << 1) + 1] = slot;
  }

  /** A token for `insertAt`: valid while no entry moves. */
  get version(): number {
    return this.moves;
  }

  /**
   * Adds an id (hashed to `h`, known absent, already at `ids[slot]`) at the empty position a `find` returned
   * (`missed`, negative) when nothing moved since (`version` unchanged) and no growth is due; otherwise probes again.
   */
  insertAt(missed: number, version: number, h: number, slot: number): void {
    if (version !== this.moves || (this.count + 1) * 2 > this.mask + 1) {
      this.insert(h, slot);
      return;
    }
    const i = -1 - missed;
    this.table[i << 1] = h;
    this.table[(i << 1) + 1] = slot;
    this.count++;
  }

  /** Adds an id (hashed to `h`, known absent, already at `ids[slot]`). */
  insert(h: number, slot: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    const table = this.table;
    const mask = this.mask;
    let i = h & mask;
    while (table[i << 1] !== 0) i = (i + 1) & mask;
    table[i << 1] = h;
    table[(i << 1) + 1] = slot;
    this.count++;
  }

  /** Empties a position and shifts back the entries of its probe run, so lookups never need tombstones. */
  removeAt(at: number): void {
    const table = this.table;
    const mask = this.mask;
    let hole = at;
    let j = at;
    for (;;) {
      j = (j + 1) & mask;
      const x = table[j << 1]!;
      if (x === 0) break;
      // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
      if (((j - (x & mask)) & mask) >= ((j - hole) & mask)) {
        table[hole << 1] = x;
        table[(hole << 1) + 1] = table[(j << 1) + 1]!;
        hole = j;
      }
    }
    table[hole << 1] = 0;
    this.count--;
    this.moves++;
    // Shrink after a flood drained, so a book does not keep a table sized for its busiest moment.
    if (this.count * 8 < mask + 1 && mask + 1 > MIN_CAPACITY) this.rehash((mask + 1) / 2);
  }

  get(id: string): number | undefined {
    const at = this.find(id, SlotIndex.hashOf(id));
    return at < 0 ? undefined : this.valueAt(at);
  }

  has(id: string): boolean {
    return this.find(id, SlotIndex.hashOf(id)) >= 0;
  }

  /** Maps `id` to `slot`; the entry is found again only while `ids[slot]` is `id`. */
  set(id: string, slot: number): this {
    const h = SlotIndex.hashOf(id);
    const at = this.find(id, h);
    if (at < 0) this.insertAt(at, this.moves, h, slot);
    else this.setValueAt(at, slot);
    return this;
  }

  delete(id: string): boolean {
    const at = this.find(id, SlotIndex.hashOf(id));
    if (at < 0) return false;
    this.removeAt(at);
    return true;
  }

  private rehash(capacity: number): void {
    this.moves++;
    const old = this.table;
    const table = new Int32Array(capacity * 2);
    const mask = capacity - 1;
    for (let k = 0; k < old.length; k += 2) {
      const h = old[k]!;
      if (h === 0) continue;
      let i = h & mask;
      while (table[i << 1] !== 0) i = (i + 1) & mask;
      table[i << 1] = h;
      table[(i << 1) + 1] = old[k + 1]!;
    }
    this.table = table;
    this.mask = mask;
  }
}
