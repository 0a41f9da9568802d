import type { MarketEvent } from '../protocol/streamEvents.js';
import { LocalBook } from './localBook.js';
import { StreamSocket, type StreamSocketOptions } from './streamSocket.js';

export interface MarketStreamOptions extends StreamSocketOptions {
  assets?: string[];
  /** Also receive best_bid_ask, new_market and market_resolved. */
  custom?: boolean;
  /** Re-hash each book after every change and re-sync it on a mismatch (default: when WebCrypto is there). */
  verify?: boolean;
}

/**
 * The market channel with a local book per asset: events in order (seq checked), each book verified
 * against the server's hash after every change, a fresh `book` fetched on a gap or a mismatch, and
 * `resume_from` on reconnect so nothing is missed.
 */
export class MarketStream extends StreamSocket<MarketEvent> {
  private readonly assets = new Set<string>();
  private readonly books = new Map<string, LocalBook>();
  readonly stats = { verified: 0, mismatches: 0, resyncs: 0 };

  constructor(private readonly options: MarketStreamOptions) {
    super(options);
    for (const a of options.assets ?? []) this.assets.add(a);
    this.start();
  }

  /** The asset's local book (undefined before its first `book`). */
  book(assetId: string): LocalBook | undefined {
    const b = this.books.get(assetId);
    return b?.ready ? b : undefined;
  }

  subscribe(assetIds: string[]): void {
    const fresh = assetIds.filter((a) => !this.assets.has(a));
    for (const a of fresh) this.assets.add(a);
    if (fresh.length > 0) this.send({ operation: 'subscribe', assets_ids: fresh, custom_feature_enabled: this.options.custom ?? false });
  }

  unsubscribe(assetIds: string[]): void {
    for (const a of assetIds) {
      this.assets.delete(a);
      this.books.delete(a);
    }
    this.send({ operation: 'unsubscribe', assets_ids: assetIds });
  }

  protected onOpen(): void {
    if (this.assets.size === 0) return;
    const resume: Record<string, number> = {};
    for (const [id, b] of this.books) if (b.ready) resume[id] = b.seq;
    this.send({ assets_ids: [...this.assets], type: 'market', initial_dump: true, custom_feature_enabled: this.options.custom ?? false, resume_from: resume });
  }

  protected onEvent(e: MarketEvent): void {
    for (const asset of assetsOf(e)) {
      if (!this.assets.has(asset)) continue;
      let b = this.books.get(asset);
      if (!b) this.books.set(asset, (b = new LocalBook(asset)));
      // Waiting for a (fresh) book: changes before it are in it or after it.
      if (!b.ready && e.event_type !== 'book') continue;
      if (!b.apply(e)) {
        this.resync(asset);
        continue;
      }
      // WebCrypto exists in Node and in secure browser contexts (localhost included); elsewhere nothing is verified.
      if ((this.options.verify ?? globalThis.crypto?.subtle !== undefined) && (e.event_type === 'book' || e.event_type === 'price_change')) {
        const book = b;
        void book.verify().then((ok) => {
          if (ok) this.stats.verified += 1;
          else if (this.books.get(asset) === book) {
            this.stats.mismatches += 1;
            this.resync(asset);
          }
        }, () => undefined);
      }
    }
    this.emit(e);
  }

  /** Drops the asset's book and asks for a fresh `book`. */
  private resync(asset: string): void {
    this.stats.resyncs += 1;
    this.books.set(asset, new LocalBook(asset));
    this.send({ operation: 'unsubscribe', assets_ids: [asset] });
    this.send({ operation: 'subscribe', assets_ids: [asset], initial_dump: true });
  }
}

function assetsOf(e: MarketEvent): string[] {
  if (e.event_type === 'price_change') return [...new Set(e.price_changes.map((c) => c.asset_id))];
  if (e.event_type === 'book' || e.event_type === 'last_trade_price' || e.event_type === 'tick_size_change') return [e.asset_id];
  return [];
}
