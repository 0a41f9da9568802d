import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createL1Headers } from '../client/createL1Headers.js';
import { createL2Headers } from '../client/createL2Headers.js';
import type { PublicBookEvent } from '../services/mirror/mirrorTypes.js';
import { accounts, units } from '../testkit/orderKit.js';
import { StreamTestEngine, type HeaderBuilders, type TestSocket } from '../testkit/streamKit.js';

const HEADERS: HeaderBuilders = { l1: async (a, c, n, ts) => ({ ...(await createL1Headers(a, c, n, ts)) }), l2: (cr, addr, req) => ({ ...createL2Headers(cr, addr as `0x${string}`, req) }) };
const [alice] = accounts as [PrivateKeyAccount];
type Msg = Record<string, unknown>;

const c = (cents: number): number => cents * 10_000;
const sh = (shares: number): number => shares * 1_000_000;

/** The level changes of a drained batch, as `side price size` strings. */
function changes(events: Msg[]): string[] {
  return events
    .filter((m) => m.event_type === 'price_change')
    .flatMap((m) => (m.price_changes as Array<{ side: string; price: string; size: string }>).map((p) => `${p.side} ${p.price} ${p.size}`));
}

function lastTrades(events: Msg[]): string[] {
  return events.filter((m) => m.event_type === 'last_trade_price').map((m) => `${String(m.side)} ${String(m.price)} ${String(m.size)}`);
}

describe('a mirrored market on /ws/market', () => {
  const t = new StreamTestEngine(HEADERS);
  let yes: string;
  let s: TestSocket;
  const apply = (events: PublicBookEvent[]) => t.engine.ctx.orders.applyPublic(t.market.conditionId, events);

  before(async () => {
    await t.start([alice]);
    yes = t.market.tokenIds[0];
    s = await t.socket('market');
    s.send({ assets_ids: [yes], type: 'market' });
    await s.drain();
  });
  after(async () => {
    s.close();
    await t.close();
  });

  it('streams public depth like any book change, and GET /book shows it', async () => {
    await apply([{ kind: 'snapshot', bids: [{ price: c(40), size: sh(10) }], asks: [{ price: c(60), size: sh(10) }] }]);
    assert.deepEqual(changes((await s.drain()) as Msg[]).sort(), ['BUY 0.4 10', 'SELL 0.6 10']);
    const book = await t.book(yes);
    assert.deepEqual(book.bids, [{ price: '0.4', size: '10' }]);
    assert.deepEqual(book.asks, [{ price: '0.6', size: '10' }]);
  });

  it("streams a user's order on the mirrored market as the combined level", async () => {
    await t.place(alice, { side: 'BUY', price: 400_000n, size: units(5) });
    assert.deepEqual(changes((await s.drain()) as Msg[]), ['BUY 0.4 15']);
    assert.deepEqual((await t.book(yes)).bids, [{ price: '0.4', size: '15' }]);
  });

  it("streams a print that fills the user as last_trade_price (the user's fill and the public part), then the level", async () => {
    // 12 public sellers at 0.40: the 10 public shares ahead go first, the user gets 2; public size refills behind.
    const r = await apply([{ kind: 'print', aggressor: 'ask', price: c(40), size: sh(12) }]);
    assert.equal(r.fills, 1);
    const events = (await s.drain()) as Msg[];
    assert.deepEqual(lastTrades(events), ['SELL 0.4 2', 'SELL 0.4 10']);
    assert.deepEqual(changes(events), ['BUY 0.4 13']);
  });

  it('streams a print between public parties as last_trade_price, with no trade stored', async () => {
    const r = await apply([{ kind: 'print', aggressor: 'bid', price: c(60), size: sh(3) }]);
    assert.equal(r.fills, 0);
    const events = (await s.drain()) as Msg[];
    assert.deepEqual(lastTrades(events), ['BUY 0.6 3']);
    assert.deepEqual(changes(events), [], 'the public size a print took refills until the upstream update says otherwise');
    const stored = t.engine.ctx.db.prepare('SELECT COUNT(*) AS n FROM trades WHERE condition_id = ?').get(t.market.conditionId) as { n: number };
    assert.equal(stored.n, 1, 'only the user fill is a stored trade');
  });

  it('streams the public layer going away (stale or closed upstream)', async () => {
    t.engine.ctx.orders.dropPublic(t.market.conditionId);
    assert.deepEqual(changes((await s.drain()) as Msg[]).sort(), ['BUY 0.4 3', 'SELL 0.6 0']);
  });
});
