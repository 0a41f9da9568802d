import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSeededRandom } from '../../book/seededRandom.js';
import { LevelChanges, PriceChangeText } from './priceChangeText.js';

test('a price_change written by hand is the JSON.stringify text of the event object, key order included', () => {
  const rnd = createSeededRandom(3);
  const dec = () => (rnd.next() < 0.3 ? '0' : rnd.int(0, 2000) + '.' + rnd.int(1, 999_999));
  // Ids a JSON writer has to escape, too.
  for (const [asset, market] of [
    ['71321045679252212594626385532706912750332728571942532289631379312455583992563', '0x' + 'ab'.repeat(32)],
    ['quote"and\\slash', 'line\nbreak é'],
  ] as const) {
    const writer = new PriceChangeText(asset, market);
    const changes = new LevelChanges();
    for (let count = 0; count < 5; count++) {
      changes.clear();
      for (let i = 0; i < count; i++) changes.add(dec(), dec(), rnd.next() < 0.5 ? 'BUY' : 'SELL');
      const [timestamp, hash, bid, ask, seq] = [String(1_800_000_000_000 + count), 'f'.repeat(40), dec(), dec(), 1_800_000_000_000_000 + count];
      const object = {
        event_type: 'price_change',
        asset_id: asset,
        market,
        timestamp,
        price_changes: Array.from({ length: changes.length }, (_, i) => ({ asset_id: asset, price: changes.prices[i], size: changes.sizes[i], side: changes.sides[i], hash, best_bid: bid, best_ask: ask })),
        hash,
        seq,
      };
      assert.equal(writer.write(timestamp, changes, hash, bid, ask, seq), JSON.stringify(object));
    }
  }
});
