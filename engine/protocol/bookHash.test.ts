import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bookHashOf, levelsJson, levelsText, renderBookSnapshot, sha1Hex, snapshotHash, snapshotHead, snapshotTail } from './bookHash.js';

const CLIENT_ORDER =
  '{"market":"0xaabbcc","asset_id":"100","timestamp":"123456789","bids":[{"price":"0.3","size":"100"},{"price":"0.4","size":"100"}],"asks":[{"price":"0.6","size":"100"},{"price":"0.7","size":"100"}],"min_order_size":"15","tick_size":"0.001","neg_risk":false,"hash":""}';
const SERVER_ORDER =
  '{"market":"0xaabbcc","asset_id":"100","timestamp":"123456789","hash":"","bids":[{"price":"0.3","size":"100"},{"price":"0.4","size":"100"}],"asks":[{"price":"0.7","size":"100"},{"price":"0.6","size":"100"}],"min_order_size":"15","tick_size":"0.001","neg_risk":false,"last_trade_price":"0.5"}';

test('the clob-client test object hashes to the published SHA-1 (§10 vector 1)', () => {
  assert.equal(sha1Hex(CLIENT_ORDER), '36f56998e26d9a7c553446f35b240481efb271a3');
  assert.equal(bookHashOf(JSON.parse(CLIENT_ORDER) as Record<string, unknown>), '36f56998e26d9a7c553446f35b240481efb271a3');
});

test('the server key order hashes to the published SHA-1 (§10 vector 2)', () => {
  assert.equal(sha1Hex(SERVER_ORDER), 'aeb041e03e2dff85e16888bd5400977cbf9a9125');
});

test('renderBookSnapshot emits the server key order and a hash any client reproduces', () => {
  const { json, hash } = renderBookSnapshot({
    market: '0xaabbcc',
    asset_id: '100',
    timestamp: '123456789',
    bids: levelsText([
      { price: '0.3', size: '100' },
      { price: '0.4', size: '100' },
    ]),
    asks: levelsText([
      { price: '0.7', size: '100' },
      { price: '0.6', size: '100' },
    ]),
    min_order_size: '15',
    tick_size: '0.001',
    neg_risk: false,
    last_trade_price: '0.5',
  });
  assert.equal(hash, 'aeb041e03e2dff85e16888bd5400977cbf9a9125');
  const parsed = JSON.parse(json) as Record<string, unknown>;
  assert.deepEqual(Object.keys(parsed), ['market', 'asset_id', 'timestamp', 'hash', 'bids', 'asks', 'min_order_size', 'tick_size', 'neg_risk', 'last_trade_price']);
  assert.equal(parsed.hash, hash);
  assert.equal(bookHashOf(parsed), hash);
  assert.equal(json.replace(hash, ''), SERVER_ORDER);
});

test('levelsJson of no levels is an empty array', () => {
  assert.equal(levelsJson([]), '[]');
});

test('snapshotHash gives the hash of the snapshot renderBookSnapshot builds from the same parts', () => {
  const bids = [
    { price: '0.3', size: '100' },
    { price: '0.4', size: '100' },
  ];
  const asks = [
    { price: '0.7', size: '100' },
    { price: '0.6', size: '100' },
  ];
  const terms = { min_order_size: '15', tick_size: '0.001', neg_risk: false, last_trade_price: '0.5' };
  const inner = (levels: typeof bids) => levelsJson(levels).slice(1, -1);
  const hash = snapshotHash(snapshotHead('0xaabbcc', '100'), '123456789', inner(bids), inner(asks), snapshotTail(terms));
  assert.equal(hash, 'aeb041e03e2dff85e16888bd5400977cbf9a9125');
  const other = { ...terms, neg_risk: true, last_trade_price: '0.45' };
  const rendered = renderBookSnapshot({ market: '0xaabbcc', asset_id: '100', timestamp: '42', bids: levelsText(asks), asks: levelsText([]), ...other });
  assert.equal(snapshotHash(snapshotHead('0xaabbcc', '100'), '42', inner(asks), '', snapshotTail(other)), rendered.hash);
  assert.equal(bookHashOf(JSON.parse(rendered.json) as Record<string, unknown>), rendered.hash);
  // Any text, also beyond ASCII and longer than the buffer it starts with, hashes as its UTF-8 bytes.
  const long = Array.from({ length: 2000 }, (_, i) => ({ price: '0.' + (i + 1), size: String(i) }));
  const odd = renderBookSnapshot({ market: '0xé€😀', asset_id: '1\u2028"', timestamp: '7', bids: levelsText(long), asks: levelsText(bids), ...other });
  assert.equal(snapshotHash(snapshotHead('0xé€😀', '1\u2028"'), '7', inner(long), inner(bids), snapshotTail(other)), odd.hash);
  assert.equal(bookHashOf(JSON.parse(odd.json) as Record<string, unknown>), odd.hash);
});
