/** One asset's level changes for a `price_change`, as parallel lists the channel reuses from event to event. */
export class LevelChanges {
  readonly prices: string[] = [];
  readonly sizes: string[] = [];
  readonly sides: Array<'BUY' | 'SELL'> = [];
  length = 0;

  add(price: string, size: string, side: 'BUY' | 'SELL'): void {
    this.prices[this.length] = price;
    this.sizes[this.length] = size;
    this.sides[this.length] = side;
    this.length++;
  }

  clear(): void {
    this.length = 0;
  }
}

/**
 * The wire text of one asset's `price_change`, written as JSON.stringify writes the event object
 * `{event_type, asset_id, market, timestamp, price_changes: [{asset_id, price, size, side, hash, best_bid,
 * best_ask}], hash, seq}`. The stream sends one per changed asset and flush, and stringifying the object
 * form (after building it) was the largest cost of publishing. The asset's and market's ids are escaped
 * once per asset and the timestamp per event; prices, sizes and best prices are decimal texts, the hash
 * is hex and the sides are fixed words, none of which JSON escapes.
 */
export class PriceChangeText {
  private readonly head: string;
  private readonly changeHead: string;

  constructor(assetId: string, market: string) {
    const asset = JSON.stringify(assetId);
    this.head = '{"event_type":"price_change","asset_id":' + asset + ',"market":' + JSON.stringify(market) + ',"timestamp":';
    this.changeHead = '{"asset_id":' + asset + ',"price":"';
  }

  write(timestamp: string, changes: LevelChanges, hash: string, bestBid: string, bestAsk: string, seq: number): string {
    // The pieces are joined once (concatenating them would build a rope of ~15 strings per change first).
    let n = 0;
    parts[n++] = this.head;
    parts[n++] = JSON.stringify(timestamp);
    parts[n++] = ',"price_changes":[';
    for (let i = 0; i < changes.length; i++) {
      parts[n++] = i === 0 ? '' : ',';
      parts[n++] = this.changeHead;
      parts[n++] = changes.prices[i]!;
      parts[n++] = '","size":"';
      parts[n++] = changes.sizes[i]!;
      parts[n++] = '","side":"';
      parts[n++] = changes.sides[i]!;
      parts[n++] = '","hash":"';
      parts[n++] = hash;
      parts[n++] = '","best_bid":"';
      parts[n++] = bestBid;
      parts[n++] = '","best_ask":"';
      parts[n++] = bestAsk;
      parts[n++] = '"}';
    }
    parts[n++] = '],"hash":"';
    parts[n++] = hash;
    parts[n++] = '","seq":';
    parts[n++] = String(seq);
    parts[n++] = '}';
    // Exactly this event's pieces for the join; a small change of length keeps the array's storage.
    parts.length = n;
    return parts.join('');
  }
}

/** The pieces of the text being written: reused, as writes never overlap. */
const parts: string[] = [];
