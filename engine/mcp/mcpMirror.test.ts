import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseUnits } from '../protocol/amounts.js';
import { GAMMA_FIXTURE_SLUG, GammaKit } from '../testkit/gammaKit.js';
import { withMcpAgent, type ToolCallResult } from '../testkit/mcpKit.js';
import { UpstreamKit } from '../testkit/upstreamKit.js';

type Level = { price: string; size: string };

/** Polls a tool until its answer passes `done` (the live feed delivers the public book asynchronously). */
async function until(read: () => Promise<ToolCallResult>, done: (r: ToolCallResult) => boolean, what: string): Promise<ToolCallResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await read();
    if (done(r)) return r;
    if (Date.now() > deadline) assert.fail(`${what} within 10 s; last answer: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('MCP mirror tools against a local public exchange (issues 22 and 24)', () => {
  let upstream: UpstreamKit;
  let gamma: GammaKit;
  let conditionId: `0x${string}`;

  before(async () => {
    // The public exchange: a second engine in the polymarket profile, participants off so its book stays the demo seed ladder.
    upstream = await UpstreamKit.start({ simulation: false });
    conditionId = upstream.market().conditionId;
    gamma = await GammaKit.start(await upstream.identity(conditionId));
  });
  after(async () => {
    await gamma?.close();
    await upstream?.close();
  });

  const mirrorConfig = () => ({ seedDemo: false, simulation: false, upstreamClob: upstream.base, upstreamGamma: gamma.base, upstreamWs: upstream.wsUrl });

  it('an agent searches the public catalogue, mirrors a market by slug (recorded to a tape list_tapes shows), sees its mirror status and fee schedule, quotes and takes the public depth, and stops the mirror', async () => {
    await withMcpAgent(mirrorConfig(), async ({ call, op }) => {
      assert.equal((await op('POST', '/admin/tapes/recording', { enabled: true })).status, 200);
      const search = await call('search_public_markets', { query: 'fed july', limit: 5 });
      assert.equal(search.ok, true, search.text);
      const hits = search.data.markets as Array<{ slug: string; conditionId: string; mirrored: boolean }>;
      const hit = hits.find((m) => m.slug === GAMMA_FIXTURE_SLUG)!;
      assert.equal(hit.conditionId, conditionId, "the catalogue row is the upstream's market");
      assert.equal(hit.mirrored, false);

      const mirrored = await call('mirror_market', { market: GAMMA_FIXTURE_SLUG });
      assert.equal(mirrored.ok, true, mirrored.text);
      assert.equal(mirrored.data.conditionId, conditionId);
      assert.equal((mirrored.data.mirror as { source: string }).source, 'public');
      assert.match(mirrored.text, /^mirrored .* mirrored from public/);
      const again = await call('mirror_market', { market: conditionId });
      assert.equal(again.data.conditionId, conditionId, 'a market mirrored already is answered as it is');

      const yes = (mirrored.data.outcomes as Array<{ tokenId: string }>)[0]!.tokenId;
      // The public book as the public exchange serves it (bids and asks worst first on the wire).
      const wire = (await (await fetch(`${upstream.base}/book?token_id=${yes}`)).json()) as { bids: Level[]; asks: Level[] };
      const publicBid = wire.bids.at(-1)!;
      const publicAsk = wire.asks.at(-1)!;
      const book = await until(() => call('get_book', { token_id: yes, depth: 5 }), (r) => (r.data.asks as Level[] | undefined)?.length === Math.min(5, wire.asks.length) && (r.data.bids as Level[]).length === Math.min(5, wire.bids.length), 'the public book arrives');
      const [bid, ask] = [(book.data.bids as Level[])[0]!, (book.data.asks as Level[])[0]!];
      assert.deepEqual([Number(bid.price), Number(bid.size), Number(ask.price), Number(ask.size)], [publicBid, publicAsk].flatMap((l) => [Number(l.price), Number(l.size)]), 'the best levels are the public ones');
      assert.ok(Number(ask.size) >= 10, 'the test takes 10 shares from the best ask');

      const tapes = await call('list_tapes');
      assert.equal(tapes.data.recording, true);
      const tape = (tapes.data.tapes as Array<{ conditionId: string; events: number }>).find((t) => t.conditionId === conditionId);
      assert.ok(tape && tape.events >= 2, `the mirror's upstream entries are recorded: ${tapes.text}`);

      const market = await call('get_market', { market: GAMMA_FIXTURE_SLUG });
      assert.equal(market.ok, true, market.text);
      const status = market.data.mirror as { source: string; upstreamState: string; lastEventAgeMs: number | null };
      assert.equal(status.source, 'public');
      assert.equal(status.upstreamState, 'live');
      assert.equal(typeof status.lastEventAgeMs, 'number');
      assert.match(market.text, /mirrored from public \(live, last event \d+ ms ago\)/);
      assert.deepEqual(market.data.feeSchedule, { rate: '0.05', exponent: 1, takerOnly: true, rebateRate: '0.25' }, "the public market's fee schedule (Gamma's)");
      assert.equal(market.data.feeRateBps, 500);
      const listed = await call('list_markets', { kind: 'mirrored' });
      assert.deepEqual((listed.data.markets as Array<{ conditionId: string }>).map((m) => m.conditionId), [conditionId]);
      assert.equal(((await call('search_public_markets', { query: 'fed july' })).data.markets as Array<{ conditionId: string; mirrored: boolean }>).find((m) => m.conditionId === conditionId)?.mirrored, true);

      const quote = await call('quote_order', { token_id: yes, side: 'BUY', size: '10' });
      assert.equal(quote.ok, true, quote.text);
      assert.equal(Number(quote.data.averagePrice), Number(ask.price));
      assert.ok(parseUnits(quote.data.fees as string)! > 0n, `the public fee schedule prices the quote: ${quote.text}`);
      const before = parseUnits((await call('get_balance')).data.balance as string)!;
      const take = await call('place_order', { token_id: yes, side: 'BUY', size: '10', type: 'FAK' });
      assert.equal(take.ok, true, take.text);
      assert.equal(take.data.status, 'matched');
      const paid = before - parseUnits((await call('get_balance')).data.balance as string)!;
      assert.equal(paid, parseUnits(quote.data.notional as string)! + parseUnits(quote.data.fees as string)!, 'the fill cost what the quote said, fee included');
      const after = await call('get_book', { token_id: yes });
      const left = (after.data.asks as Level[]).find((l) => l.price === ask.price);
      assert.equal(Number(left?.size ?? 0), Number(ask.size) - 10, 'the consumed public size is gone from the level');
      const positions = await call('get_positions');
      assert.equal((positions.data.positions as Array<{ size: number }>)[0]?.size, 10);

      const stopped = await call('stop_mirror', { condition_id: conditionId });
      assert.equal(stopped.ok, true, stopped.text);
      assert.equal(stopped.data.state, 'closed');
      assert.equal((stopped.data.mirror as { upstreamState: string }).upstreamState, 'closed');
      const refused = await call('place_order', { token_id: yes, side: 'BUY', size: '10', type: 'FAK' });
      assert.equal(refused.ok, false, 'a stopped mirror takes no orders');
    });
  });

  it('refuses an unknown public market, a local or unknown market to stop, bad arguments and a public catalogue that is down, as tool errors that say what to do', async () => {
    await withMcpAgent(mirrorConfig(), async ({ call, op, agent }) => {
      const unknown = await call('mirror_market', { market: 'no-such-market-anywhere' });
      assert.equal(unknown.ok, false);
      assert.match(unknown.text, /^mirror_not_found: .*search_public_markets/);
      const junk = await call('mirror_market', { market: 'not a slug!' });
      assert.match(junk.text, /^mirror_not_found: .*neither a condition id/);
      const empty = await call('mirror_market', { market: '' });
      assert.equal(empty.ok, false);
      assert.match(empty.text, /market/);
      const stop = await call('stop_mirror', { condition_id: '0x' + '00'.repeat(32) });
      assert.match(stop.text, /^market_not_found: .*list_markets with kind "mirrored"/);
      const noWords = await call('search_public_markets', { query: '   ' });
      assert.equal(noWords.ok, false);
      assert.equal((await call('list_markets')).data.total, 0, 'no refusal created a market');

      gamma.failNext = { status: 503, times: 1 };
      const down = await call('search_public_markets', { query: 'fed' });
      assert.equal(down.ok, false);
      assert.match(down.text, /^upstream_unavailable: .*503.*--upstream-gamma/);
      const audit = (await op('GET', `/admin/agents/audit?agent=${agent.id}`)).json.entries as Array<{ tool: string; ok: boolean; arguments: Record<string, unknown> }>;
      assert.deepEqual(audit.filter((e) => e.tool !== 'list_markets').map((e) => [e.tool, e.ok]), [['mirror_market', false], ['mirror_market', false], ['mirror_market', false], ['stop_mirror', false], ['search_public_markets', false], ['search_public_markets', false]], 'every call is in the audit log');
      assert.deepEqual(audit[0]!.arguments, { market: 'no-such-market-anywhere' });
    });
  });

  it('a mirrored market whose upstream has been silent 30 exchange seconds shows stale, and a marketable order on it is a market_stale tool error while a resting one is placed', async () => {
    // 1200× exchange time: the 10 s between the feed's pings are 200 exchange minutes, so the silent market goes stale at once.
    await withMcpAgent({ ...mirrorConfig(), speed: 1200 }, async ({ call }) => {
      const mirrored = await call('mirror_market', { market: conditionId });
      assert.equal(mirrored.ok, true, mirrored.text);
      const yes = (mirrored.data.outcomes as Array<{ tokenId: string }>)[0]!.tokenId;
      await until(() => call('get_book', { token_id: yes }), (r) => (r.data.asks as Level[] | undefined)?.length !== 0, 'the public book arrives');
      const stale = await until(() => call('get_market', { market: conditionId }), (r) => (r.data.mirror as { upstreamState: string }).upstreamState === 'stale', 'the mirror goes stale');
      assert.match(stale.text, /mirrored from public \(stale, last event \d+ ms ago\)/);
      const take = await call('place_order', { token_id: yes, side: 'BUY', size: '10', type: 'FAK' });
      assert.equal(take.ok, false);
      assert.match(take.text, /^market_stale: .*upstream/);
      const rest = await call('place_order', { token_id: yes, side: 'BUY', size: '5', price: '0.01', type: 'GTC' });
      assert.equal(rest.data.status, 'live', rest.text);
    });
  });

  it('when the public market resolves, the mirrored copy resolves with the public winner: get_market says so and place_order is refused', async () => {
    await withMcpAgent(mirrorConfig(), async ({ call }) => {
      // Another public market than the other tests', mirrored by condition id (the CLOB alone names it).
      const other = upstream.markets().find((m) => m.conditionId !== conditionId && !m.negRisk)!;
      const mirrored = await call('mirror_market', { market: other.conditionId });
      assert.equal(mirrored.ok, true, mirrored.text);
      const yes = (mirrored.data.outcomes as Array<{ tokenId: string }>)[0]!.tokenId;
      await until(() => call('get_book', { token_id: yes }), (r) => (r.data.asks as Level[] | undefined)?.length !== 0, 'the public book arrives');
      await upstream.resolve(other.conditionId, 0);
      const resolved = await until(() => call('get_market', { market: other.conditionId }), (r) => r.data.state === 'resolved', 'the mirror resolves');
      assert.equal(resolved.data.winner, (mirrored.data.outcomes as Array<{ name: string }>)[0]!.name, 'the public winner, outcome 0');
      assert.equal((resolved.data.mirror as { upstreamState: string }).upstreamState, 'closed');
      const refused = await call('place_order', { token_id: yes, side: 'BUY', size: '5', price: '0.5' });
      assert.equal(refused.ok, false);
      assert.match(refused.text, /is resolved and takes no orders/);
    });
  });

  it('with the public exchange unreachable, mirror_market is a tool error that names the upstream flags, and nothing is created', async () => {
    await withMcpAgent({ seedDemo: false, simulation: false, upstreamClob: 'http://127.0.0.1:9', upstreamGamma: 'http://127.0.0.1:9', upstreamWs: 'ws://127.0.0.1:9/ws/market' }, async ({ call }) => {
      const r = await call('mirror_market', { market: conditionId });
      assert.equal(r.ok, false);
      assert.match(r.text, /^upstream_unavailable: GET http:\/\/127\.0\.0\.1:9\/markets\/.*unreachable.*--upstream-clob/);
      assert.equal((await call('list_markets')).data.total, 0);
    });
  });
});
