/**
 * The book's id → order index: an open-addressing hash table (linear probing, backward-shift deletion, no
 * tombstones) that keeps each key's 32-bit hash in a typed array beside it.
 *
 * Why not a Map: a lookup that misses (every new order's duplicate check) walks a V8 Map bucket chain and
 * compares the id with each chained key, which reads every one of those key strings; in a book of tens of
 * thousands of orders those strings are cold, so each compare is a cache miss, and the profile of a deep
 * book showed the Map at ~60 % of matching time. Here a probe compares stored hashes (one contiguous
 * Int32Array) and touches a key only when its full hash matches, i.e. almost only the key sought.
 *
 * Callers on the hot path hash an id once (`hashOf`) and pass the hash to `find`/`insert`/`removeAt`.
 * `get`/`has`/`set`/`delete`/`size` keep the Map shape for everything else (tests, invariant checks).
 */
const MIN_CAPACITY = 16;
/** Hash at most this many trailing characters: ids are engine-made ULIDs, whose last 16 are the random part (ids
 * sharing a long tail would only probe longer, never be confused: keys are compared in full). */
const HASHED_CHARS = 16;

export class IdIndex<V> {
  /** 0 marks an empty slot; stored hashes are forced odd, so never 0. */
  private hashes = new Int32Array(MIN_CAPACITY);
  /** keys and values interleaved (key at 2i, value at 2i+1): one cache line serves both. */
  private slots: (string | V | undefined)[] = new Array<undefined>(MIN_CAPACITY * 2).fill(undefined);
  private mask = MIN_CAPACITY - 1;
  private count = 0;
  /** Bumped whenever entries move (removal, rehash): an empty slot found before is still right if it did not change. */
  private moves = 0;

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

  /** Slot of `id` (hashed to `h`), or, when absent, −1 − the empty slot where it would go (see `insertAt`). */
  find(id: string, h: number): number {
    const hashes = this.hashes;
    const slots = this.slots;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const x = hashes[i]!;
      if (x === 0) return -1 - i;
      if (x === h && slots[i << 1] === id) return i;
      i = (i + 1) & mask;
    }
  }

  valueAt(slot: number): V {
    return this.slots[(slot << 1) + 1] as V;
  }

  /** A token for `insertAt`: valid while no entry moves. */
  get version(): number {
    return this.moves;
  }

  /**
   * Adds `id` (hashed to `h`, known absent) at the empty slot a `find` returned (`missed`, negative) when
   * nothing moved since (`version` unchanged) and no growth is due; otherwise probes again.
   */
  insertAt(missed: number, version: number, id: string, h: number, value: V): void {
    if (version !== this.moves || (this.count + 1) * 2 > this.hashes.length) {
      this.insert(id, h, value);
      return;
    }
    const i = -1 - missed;
    this.hashes[i] = h;
    this.slots[i << 1] = id;
    this.slots[(i << 1) + 1] = value;
    this.count++;
  }

  /** Adds `id` (hashed to `h`), which the caller knows is absent. */
  insert(id: string, h: number, value: V): void {
    if ((this.count + 1) * 2 > this.hashes.length) this.rehash(this.hashes.length * 2);
    const hashes = this.hashes;
    const mask = this.mask;
    let i = h & mask;
    while (hashes[i] !== 0) i = (i + 1) & mask;
    hashes[i] = h;
    this.slots[i << 1] = id;
    this.slots[(i << 1) + 1] = value;
    this.count++;
  }

  /** Empties a slot and shifts back the entries of its probe run, so lookups never need tombstones. */
  removeAt(slot: number): void {
    const hashes = this.hashes;
    const slots = this.slots;
    const mask = this.mask;
    let hole = slot;
    let j = slot;
    for (;;) {
      j = (j + 1) & mask;
      const x = hashes[j]!;
      if (x === 0) break;
      // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
      if (((j - (x & mask)) & mask) >= ((j - hole) & mask)) {
        hashes[hole] = x;
        slots[hole << 1] = slots[j << 1];
        slots[(hole << 1) + 1] = slots[(j << 1) + 1];
        hole = j;
      }
    }
    hashes[hole] = 0;
    slots[hole << 1] = undefined;
    slots[(hole << 1) + 1] = undefined;
    this.count--;
    this.moves++;
    // Shrink after a flood drained, so a book does not keep a table sized for its busiest moment.
    if (this.count * 8 < hashes.length && hashes.length > MIN_CAPACITY) this.rehash(hashes.length / 2);
  }

  get(id: string): V | undefined {
    const slot = this.find(id, IdIndex.hashOf(id));
    return slot < 0 ? undefined : this.valueAt(slot);
  }

  has(id: string): boolean {
    return this.find(id, IdIndex.hashOf(id)) >= 0;
  }

  set(id: string, value: V): this {
    const h = IdIndex.hashOf(id);
    const slot = this.find(id, h);
    if (slot < 0) this.insertAt(slot, this.moves, id, h, value);
    else this.slots[(slot << 1) + 1] = value;
    return this;
  }

  delete(id: string): boolean {
    const slot = this.find(id, IdIndex.hashOf(id));
    if (slot < 0) return false;
    this.removeAt(slot);
    return true;
  }

  private rehash(capacity: number): void {
    this.moves++;
    const oldHashes = this.hashes;
    const oldSlots = this.slots;
    this.hashes = new Int32Array(capacity);
    this.slots = new Array<undefined>(capacity * 2).fill(undefined);
    this.mask = capacity - 1;
    const hashes = this.hashes;
    const slots = this.slots;
    const mask = this.mask;
    for (let k = 0; k < oldHashes.length; k++) {
      const h = oldHashes[k]!;
      if (h === 0) continue;
      let i = h & mask;
      while (hashes[i] !== 0) i = (i + 1) & mask;
      hashes[i] = h;
      slots[i << 1] = oldSlots[k << 1];
      slots[(i << 1) + 1] = oldSlots[(k << 1) + 1];
    }
  }
}
