import { bookHashText, type BookEvent, type MarketEvent, type WireLevel } from '../protocol/streamEvents.js';

/** SHA-1 hex of a text (WebCrypto: Node 20 and browsers alike). */
export async function sha1Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One asset's book kept from the market channel: the last `book`, then every change. `apply` says
 * whether the events still follow (seq contiguous); `verify` proves the book equals the server's by
 * re-hashing it as GET /book would render it and comparing with the last event's hash.
 */
export class LocalBook {
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();
  private snapshot: Omit<BookEvent, 'bids' | 'asks'> | undefined;
  seq = -1;
  hash = '';

  constructor(readonly assetId: string) {}

  get ready(): boolean {
    return this.snapshot !== undefined;
  }

  /** Applies one event of this asset; false when it does not follow the last one (a gap: re-sync). */
  apply(e: MarketEvent): boolean {
    if (e.event_type === 'book') {
      this.bids.clear();
      this.asks.clear();
      for (const l of e.bids) this.bids.set(l.price, l.size);
      for (const l of e.asks) this.asks.set(l.price, l.size);
      const { bids: _b, asks: _a, ...rest } = e;
      this.snapshot = rest;
      this.seq = e.seq;
      this.hash = e.hash;
      return true;
    }
    if (e.event_type !== 'price_change' && e.event_type !== 'last_trade_price' && e.event_type !== 'tick_size_change') return true;
    if (!this.snapshot) return false;
    if (e.seq !== this.seq + 1) return false;
    this.seq = e.seq;
    if (e.event_type === 'last_trade_price') this.snapshot = { ...this.snapshot, last_trade_price: e.price };
    else if (e.event_type === 'tick_size_change') {
      // The server re-hashed the unchanged levels on the new tick, at the change's time.
      this.snapshot = { ...this.snapshot, tick_size: e.new_tick_size, timestamp: e.timestamp, hash: e.hash };
      this.hash = e.hash;
    }
    else {
      for (const c of e.price_changes) {
        if (c.asset_id !== this.assetId) continue;
        const side = c.side === 'BUY' ? this.bids : this.asks;
        if (c.size === '0') side.delete(c.price);
        else side.set(c.price, c.size);
      }
      this.snapshot = { ...this.snapshot, timestamp: e.timestamp, hash: e.hash };
      this.hash = e.hash;
    }
    return true;
  }

  /** Bids best LAST (ascending), as GET /book. */
  bidLevels(): WireLevel[] {
    return sortLevels(this.bids, 1);
  }

  /** Asks best LAST (descending), as GET /book. */
  askLevels(): WireLevel[] {
    return sortLevels(this.asks, -1);
  }

  /** The book as a `book` event (what GET /book would answer at the last event's time). */
  toBook(): BookEvent | undefined {
    if (!this.snapshot) return undefined;
    return { ...this.snapshot, event_type: 'book', bids: this.bidLevels(), asks: this.askLevels(), hash: this.hash, seq: this.seq };
  }

  /** True when the local book hashes to the last event's hash. */
  async verify(): Promise<boolean> {
    const b = this.toBook();
    if (!b) return false;
    return (await sha1Hex(bookHashText(b))) === b.hash;
  }
}

function sortLevels(m: Map<string, string>, dir: 1 | -1): WireLevel[] {
  return [...m].map(([price, size]) => ({ price, size })).sort((a, b) => dir * (Number(a.price) - Number(b.price)));
}
