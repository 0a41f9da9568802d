import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EngineConfig } from '../config.js';
import type { Engine } from '../engine.js';
import { startListeningEngine } from '../testkit/clobClientKit.js';

type Op = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>;

function operator(host: string, engine: Engine): Op {
  return async (method, path, body) => {
    const res = await fetch(host + path, { method, headers: { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

async function connect(host: string, token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(host + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

async function withAgent<T>(config: Partial<EngineConfig>, limits: Record<string, unknown> | undefined, body: (c: { engine: Engine; host: string; op: Op; client: Client; agent: { id: string; token: string; address: string } }) => Promise<T>): Promise<T> {
  // Participants off: the demo markets keep their static seed ladder, so books and fills are known in advance.
  const { engine, host, close } = await startListeningEngine({ seedDemo: true, simulation: false, ...config });
  const op = operator(host, engine);
  try {
    const created = await op('POST', '/admin/agents', { name: 'tester', ...(limits ? { limits } : {}) });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const agent = created.json as unknown as { id: string; token: string; address: string };
    const client = await connect(host, agent.token);
    try {
      return await body({ engine, host, op, client, agent });
    } finally {
      await client.close();
    }
  } finally {
    await close();
  }
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ ok: boolean; text: string; data: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  return { ok: r.isError !== true, text, data: (r.structuredContent ?? {}) as Record<string, unknown> };
}

async function firstMarket(client: Client): Promise<{ conditionId: string; yes: string; no: string }> {
  const list = await call(client, 'list_markets', { query: 'bitcoin' });
  const m = (list.data.markets as Array<{ conditionId: string; outcomes: Array<{ tokenId: string }> }>)[0]!;
  return { conditionId: m.conditionId, yes: m.outcomes[0]!.tokenId, no: m.outcomes[1]!.tokenId };
}

describe('the MCP server over Streamable HTTP (issue 24)', () => {
  it('lists its tools, and an agent discovers a market, reads its book, quotes, rests a limit order, cancels it, takes liquidity with a market order and reads its balance, positions and report', async () => {
    await withAgent({}, undefined, async ({ client, agent }) => {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const t of ['list_markets', 'get_market', 'get_book', 'get_price', 'get_price_history', 'get_recent_trades', 'quote_order', 'place_order', 'cancel_order', 'cancel_all', 'get_order', 'list_open_orders', 'get_balance', 'get_positions', 'get_trade_history', 'get_activity', 'faucet', 'reset_paper_account', 'get_report', 'get_clock', 'advance', 'run_until', 'list_scenarios', 'start_scenario', 'stop_scenario']) assert.ok(tools.includes(t), `tool ${t} is listed`);

      const m = await firstMarket(client);
      const market = await call(client, 'get_market', { market: m.conditionId });
      assert.equal(market.ok, true, market.text);
      assert.equal(market.data.tickSize, '0.01');
      assert.equal(market.data.state, 'open');
      const book = await call(client, 'get_book', { token_id: m.yes, depth: 2 });
      const bids = book.data.bids as Array<{ price: string }>;
      const asks = book.data.asks as Array<{ price: string }>;
      assert.equal(bids.length, 2);
      assert.ok(Number(bids[0]!.price) > Number(bids[1]!.price), 'best bid first');
      assert.ok(Number(asks[0]!.price) < Number(asks[1]!.price), 'best ask first');
      const price = await call(client, 'get_price', { token_id: m.yes });
      assert.equal(price.data.bestAsk, asks[0]!.price);

      const quote = await call(client, 'quote_order', { token_id: m.yes, side: 'BUY', size: '10' });
      assert.equal(quote.ok, true, quote.text);
      assert.equal(quote.data.averagePrice, asks[0]!.price, 'ten shares fit in the best level');
      assert.equal(quote.data.fillsCompletely, true);

      const rest = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '10', price: '0.05', type: 'GTC' });
      assert.equal(rest.ok, true, rest.text);
      assert.equal(rest.data.status, 'live');
      const open = await call(client, 'list_open_orders');
      assert.equal((open.data.orders as unknown[]).length, 1);
      const cancel = await call(client, 'cancel_order', { order_id: rest.data.orderId });
      assert.equal(cancel.ok, true, cancel.text);
      const cancelled = await call(client, 'get_order', { order_id: rest.data.orderId });
      assert.equal(cancelled.data.status, 'cancelled', cancelled.text);
      assert.match((await call(client, 'get_order', { order_id: 'nope' })).text, /This agent has no order "nope"/);

      const take = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '10', type: 'FAK' });
      assert.equal(take.ok, true, take.text);
      assert.equal(take.data.status, 'matched');
      const balance = await call(client, 'get_balance');
      assert.ok(Number(balance.data.balance) < 10_000, balance.text);
      const positions = await call(client, 'get_positions');
      assert.equal((positions.data.positions as Array<{ size: number }>)[0]?.size, 10);
      const report = await call(client, 'get_report');
      assert.equal(report.data.account, agent.address);
      assert.equal(report.data.turnover, quote.data.notional, 'the fill was what the quote said');
      assert.equal(report.data.trades, 1);
      const trades = await call(client, 'get_trade_history');
      assert.equal((trades.data.trades as unknown[]).length, 1);
    });
  });

  it('refuses bad arguments, an unknown market, a paused market, orders over the agent limits and clock steps outside stepped mode as tool errors that say what to fix, and a dry run places nothing', async () => {
    await withAgent({}, { maxOrderNotional: '5', maxOrdersPerMinute: 2 }, async ({ engine, client }) => {
      const m = await firstMarket(client);
      const bad = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: 'ten', price: '0.5' });
      assert.equal(bad.ok, false);
      assert.match(bad.text, /size must be a decimal string/);
      const unknown = await call(client, 'get_market', { market: '0xdead' });
      assert.equal(unknown.ok, false);
      assert.match(unknown.text, /No market .*list_markets/);
      const offTick = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.055' });
      assert.match(offTick.text, /multiple of the tick 0.01/);
      const big = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '100', price: '0.1' });
      assert.equal(big.ok, false);
      assert.match(big.text, /maxOrderNotional 5/);
      const dry = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.05', dry_run: true });
      assert.equal(dry.ok, true, dry.text);
      assert.equal(dry.data.dryRun, true);
      assert.equal(((await call(client, 'list_open_orders')).data.orders as unknown[]).length, 0, 'a dry run places nothing');
      for (let i = 0; i < 2; i++) assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.05' })).ok, true);
      const third = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.05' });
      assert.match(third.text, /maxOrdersPerMinute/);
      await engine.ctx.markets.pause(m.conditionId);
      const paused = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.05' });
      assert.match(paused.text, /is paused and takes no orders/);
      const adv = await call(client, 'advance', { seconds: 60 });
      assert.equal(adv.ok, false);
      assert.match(adv.text, /clock_not_stepped: .*--clock stepped/);
    });
  });

  it('refuses a missing, unknown or revoked agent token with 401, and the audit log holds every tool call with its arguments, result and token', async () => {
    await withAgent({}, undefined, async ({ host, op, client, agent }) => {
      const m = await firstMarket(client);
      await call(client, 'get_price', { token_id: m.yes });
      await call(client, 'get_book', { token_id: 'nope' });
      await call(client, 'get_book', { depth: 'x' });
      const audit = await op('GET', `/admin/agents/audit?agent=${agent.id}`);
      const entries = audit.json.entries as Array<{ tool: string; ok: boolean; arguments: Record<string, unknown>; token: string; result: unknown }>;
      assert.deepEqual(entries.map((e) => [e.tool, e.ok]), [['list_markets', true], ['get_price', true], ['get_book', false], ['get_book', false]]);
      assert.deepEqual(entries[1]!.arguments, { token_id: m.yes });
      assert.ok(agent.token.startsWith(entries[0]!.token), 'the token prefix, never the whole token');
      assert.notEqual(entries[0]!.token, agent.token);

      const unknownField = await op('POST', '/admin/agents', { name: 'x', key: '0xabc' });
      assert.equal(unknownField.status, 400, 'an agent never brings a key: unknown fields are refused');
      const badLimit = await op('POST', '/admin/agents', { limits: { maxOrderNotional: '-1' } });
      assert.equal(badLimit.status, 400);
      assert.match(String(badLimit.json.message), /maxOrderNotional must be a positive decimal string/);
      assert.equal((await op('DELETE', '/admin/agents/agent-99')).status, 404);
      const none = await fetch(host + '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      assert.equal(none.status, 401);
      assert.equal(((await none.json()) as { error: string }).error, 'agent_unauthorized');
      await assert.rejects(connect(host, 'agt_wrong'), /401|agent_unauthorized/);
      const revoked = await op('DELETE', `/admin/agents/${agent.id}`);
      assert.equal(revoked.status, 200);
      assert.equal(typeof revoked.json.revokedAt, 'number');
      await assert.rejects(client.callTool({ name: 'get_balance', arguments: {} }), /401|revoked/);
    });
  });

  it("keeps one session per initialize: another agent's token cannot use it, an unknown session is 404 (re-initialise), and a GET without a session opens no stream", async () => {
    await withAgent({}, undefined, async ({ host, op }) => {
      const a = (await op('POST', '/admin/agents', { name: 'a' })).json as { token: string };
      const b = (await op('POST', '/admin/agents', { name: 'b' })).json as { token: string };
      const transport = new StreamableHTTPClientTransport(new URL(host + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${a.token}` } } });
      const client = new Client({ name: 'mcp-test', version: '1.0.0' });
      await client.connect(transport);
      assert.equal(typeof transport.sessionId, 'string');
      const post = (token: string, session: string) =>
        fetch(host + '/mcp', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
      assert.equal((await post(a.token, transport.sessionId!)).status, 200);
      assert.equal((await post(b.token, transport.sessionId!)).status, 404, "another agent's token");
      assert.equal((await post(a.token, 'no-such-session')).status, 404);
      const get = await fetch(host + '/mcp', { headers: { authorization: `Bearer ${a.token}`, accept: 'text/event-stream' } });
      assert.equal(get.status, 400);
      assert.match(((await get.json()) as { error: { message: string } }).error.message, /initialize first/);
      await client.close();
    });
  });

  it("serves each market's rules and the agent's report as resources, logged like tool calls", async () => {
    await withAgent({}, undefined, async ({ op, client, agent }) => {
      const listed = (await client.listResources()).resources;
      assert.ok(listed.some((r) => r.uri === 'sandbox://account/report'));
      const market = listed.find((r) => r.uri.startsWith('sandbox://markets/'))!;
      const rules = JSON.parse(((await client.readResource({ uri: market.uri })).contents[0] as { text: string }).text) as { conditionId: string; tickSize: string };
      assert.equal(`sandbox://markets/${rules.conditionId}`, market.uri);
      const report = JSON.parse(((await client.readResource({ uri: 'sandbox://account/report' })).contents[0] as { text: string }).text) as { account: string };
      assert.equal(report.account, agent.address);
      await assert.rejects(client.readResource({ uri: 'sandbox://markets/0xnope' }), /No market .*list_markets/);
      const entries = (await op('GET', `/admin/agents/audit?agent=${agent.id}`)).json.entries as Array<{ tool: string; ok: boolean }>;
      assert.deepEqual(entries.map((e) => [e.tool, e.ok]), [['resource', true], ['resource', true], ['resource', false]]);
    });
  });

  it('the account, data and market-operation tools answer: faucet, activity, history, tape, cancel_all, paper reset, scenarios; a resolved market refuses orders', async () => {
    await withAgent({}, undefined, async ({ engine, client }) => {
      const m = await firstMarket(client);
      const faucet = await call(client, 'faucet', { amount: '250.5' });
      assert.equal(faucet.data.balance, '10250.5', faucet.text);
      assert.equal((await call(client, 'faucet', { amount: '0' })).ok, false);
      assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '10', type: 'FOK' })).ok, true);
      assert.equal((await call(client, 'place_order', { token_id: m.no, side: 'BUY', size: '5', price: '0.01' })).ok, true);
      const activity = await call(client, 'get_activity', { limit: 5 });
      assert.equal((activity.data.activity as Array<{ type: string }>)[0]?.type, 'TRADE');
      const tape = await call(client, 'get_recent_trades', { market: m.conditionId, limit: 50 });
      assert.ok((tape.data.trades as unknown[]).length >= 1, tape.text);
      const history = await call(client, 'get_price_history', { token_id: m.yes, interval: '1d', fidelity_minutes: 1 });
      assert.ok((history.data.history as unknown[]).length >= 1, history.text);
      const cancelled = await call(client, 'cancel_all');
      assert.equal((cancelled.data.canceled as unknown[]).length, 1);
      const reset = await call(client, 'reset_paper_account');
      assert.equal(reset.data.balance, '10000', reset.text);
      const scenarios = await call(client, 'list_scenarios');
      assert.ok((scenarios.data.library as Array<{ name: string }>).length >= 1, scenarios.text);
      assert.match((await call(client, 'stop_scenario')).text, /No scenario is running/);
      const gtd = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.1', type: 'GTD' });
      assert.match(gtd.text, /GTD order needs expires_at/);
      await engine.ctx.markets.resolve(m.conditionId, 0);
      const closed = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.5' });
      assert.equal(closed.ok, false);
      assert.match(closed.text, /is resolved and takes no orders/);
      assert.equal((await call(client, 'get_market', { market: m.yes })).data.state, 'resolved');
    });
  });

  it('a GTD order placed under a stepped clock expires when an advance passes its expiry', async () => {
    await withAgent({ clock: 'stepped', clockStart: Date.UTC(2030, 0, 1), seed: 3, simulation: false }, undefined, async ({ client }) => {
      const m = await firstMarket(client);
      const expiresAt = Date.UTC(2030, 0, 1) / 1000 + 120;
      const placed = await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.1', type: 'GTD', expires_at: expiresAt });
      assert.equal(placed.ok, true, placed.text);
      assert.equal(((await call(client, 'list_open_orders')).data.orders as unknown[]).length, 1);
      const adv = await call(client, 'advance', { seconds: 300 });
      assert.equal((adv.data.processed as { expiries: number }).expiries, 1, adv.text);
      assert.equal(((await call(client, 'list_open_orders')).data.orders as unknown[]).length, 0);
    });
  });

  it('run_until with stop_on own_fill stops at the end of the first exchange minute in which a resting order of the agent filled', async () => {
    await withAgent({ clock: 'stepped', clockStart: Date.UTC(2030, 0, 1), seed: 5, simulation: true }, undefined, async ({ client }) => {
      const m = await firstMarket(client);
      // The participants' makers quote once time moves.
      assert.equal((await call(client, 'advance', { seconds: 60 })).ok, true);
      const price = await call(client, 'get_price', { token_id: m.yes });
      // The makers quote a one-tick spread: join the best bid, behind them in the queue.
      const bid = Number(price.data.bestBid).toFixed(2);
      assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: bid })).ok, true);
      const until = Date.UTC(2030, 0, 1, 1);
      const r = await call(client, 'run_until', { time: until, stop_on: ['own_fill'] });
      assert.equal(r.data.stoppedBy, 'own_fill', r.text);
      assert.ok((r.data.now as number) < until);
      assert.equal(((r.data.now as number) - Date.UTC(2030, 0, 1)) % 60_000, 0, 'on a minute boundary');
      assert.equal((await call(client, 'get_report')).data.trades, 1);
    });
  });

  it('a stepped run (place, advance, report) run twice gives identical reports', async () => {
    const run = () =>
      withAgent({ clock: 'stepped', clockStart: Date.UTC(2030, 0, 1), seed: 11 }, undefined, async ({ engine, client }) => {
        const m = await firstMarket(client);
        await engine.ctx.sim.enableMarket(m.conditionId);
        assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '20', type: 'FAK' })).ok, true);
        assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'SELL', size: '10', price: '0.5' })).ok, true);
        const adv = await call(client, 'advance', { seconds: 120 });
        assert.equal(adv.ok, true, adv.text);
        const until = await call(client, 'run_until', { time: '2030-01-01T00:05:00Z' });
        assert.equal(until.ok, true, until.text);
        const report = await call(client, 'get_report');
        assert.equal(report.data.source, 'run');
        return report.data;
      });
    const a = await run();
    const b = await run();
    assert.ok((a.trades as number) >= 1);
    assert.deepEqual(a, b);
  });

  it("the terminal's report route gives get_report's numbers with the equity curve, and the finished run reads back the same from its folder", async () => {
    await withAgent({ clock: 'stepped', clockStart: Date.UTC(2030, 0, 1), seed: 13 }, undefined, async ({ client, op, agent }) => {
      const m = await firstMarket(client);
      assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '20', type: 'FAK' })).ok, true);
      assert.equal((await call(client, 'advance', { seconds: 180 })).ok, true);
      const mcp = (await call(client, 'get_report')).data;
      const live = await op('GET', `/admin/reports/${agent.address}`);
      assert.equal(live.status, 200, JSON.stringify(live.json));
      const { curve, ...numbers } = live.json as { curve: Array<{ t: number; equity: string }> };
      assert.deepEqual(numbers, mcp);
      assert.deepEqual(curve.map((p) => p.t), [1, 2, 3].map((i) => Date.UTC(2030, 0, 1, 0, i)), 'one point per exchange minute');
      assert.equal(mcp.equityPoints, 3);
      for (const k of ['return', 'sharpe', 'hitRate', 'markets', 'maxDrawdown']) assert.ok(k in mcp, `the report has ${k}`);
      assert.equal((mcp.markets as Array<{ market: string }>)[0]!.market, m.conditionId, 'per market, by condition id');

      const runs = (await op('GET', '/admin/runs')).json.runs as Array<{ runId: string; current: boolean; accounts: Array<{ account: string }> }>;
      const run = runs.find((r) => r.current)!;
      assert.ok(run.accounts.some((a) => a.account === agent.address));
      const finished = await op('GET', `/admin/runs/${run.runId}/report?account=${agent.address}`);
      assert.equal(finished.status, 200, JSON.stringify(finished.json));
      for (const k of ['pnl', 'realisedPnl', 'unrealisedPnl', 'fees', 'turnover', 'trades', 'maxDrawdown', 'return', 'sharpe', 'hitRate', 'markets', 'positions']) assert.deepEqual(finished.json[k], mcp[k], k);
      assert.deepEqual(finished.json.curve, curve);

      assert.equal((await op('GET', '/admin/reports/0xnope')).status, 400);
      assert.equal((await op('GET', `/admin/runs/nope/report?account=${agent.address}`)).json.error, 'run_not_found');
      assert.equal((await op('GET', `/admin/runs/${run.runId}/report`)).status, 400);
    });
  });

  it('in real time the report samples each account once per exchange minute on its own', async () => {
    await withAgent({ speed: 1200 }, undefined, async ({ client, op, agent }) => {
      const m = await firstMarket(client);
      assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '20', type: 'FAK' })).ok, true);
      // 1200× : an exchange minute is 50 ms of wall time.
      await new Promise((r) => setTimeout(r, 400));
      const r = (await op('GET', `/admin/reports/${agent.address}`)).json as { source: string; curve: Array<{ t: number }> };
      assert.equal(r.source, 'live');
      assert.ok(r.curve.length >= 2, `points: ${r.curve.length}`);
      assert.ok(r.curve.every((p) => p.t % 60_000 === 0), 'on exchange minutes');
    });
  });

  it("notifies a subscribed book's changes to the SDK client over the session's stream, at most every 250 ms, and stops after unsubscribe", async () => {
    await withAgent({}, undefined, async ({ client, engine }) => {
      const m = await firstMarket(client);
      const uri = `sandbox://books/${m.yes}`;
      const updates: number[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        if (n.params.uri === uri) updates.push(Date.now());
      });
      const before = JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as { bids: Array<{ price: string }> };
      assert.ok(before.bids.length > 0);
      await client.subscribeResource({ uri });
      await assert.rejects(client.subscribeResource({ uri: 'sandbox://books/123' }), /No market trades the token id "123"/);
      await assert.rejects(client.subscribeResource({ uri: 'sandbox://account/report' }), /Only books/);
      // The SDK client opens the GET stream after initialize; give it a moment to be listening.
      await new Promise((r) => setTimeout(r, 200));
      // Five resting orders in quick succession: one notification at once, one at the end of the window.
      for (let i = 0; i < 5; i++) assert.equal((await call(client, 'place_order', { token_id: m.yes, side: 'BUY', size: '5', price: '0.1' })).ok, true);
      await eventually(() => updates.length >= 1);
      await new Promise((r) => setTimeout(r, 600));
      assert.ok(updates.length >= 1 && updates.length <= 3, `notifications: ${updates.length}`);
      for (let i = 1; i < updates.length; i++) assert.ok(updates[i]! - updates[i - 1]! >= 200, 'throttled');
      const after = JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as { bids: Array<{ price: string; size: string }> };
      assert.notDeepEqual(after, before);

      await client.unsubscribeResource({ uri });
      const seen = updates.length;
      assert.equal((await call(client, 'cancel_all')).ok, true);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(updates.length, seen, 'no notification after unsubscribe');
      const tools = engine.ctx.agents.audit.read({ limit: 100 }).map((e) => e.tool);
      assert.ok(tools.includes('subscribe') && tools.includes('unsubscribe'), 'subscriptions are audited');
    });
  });

  it("closes the engine at once while an agent's notification stream is open (no shutdown grace spent waiting for it)", async () => {
    const { engine, host, close } = await startListeningEngine({ seedDemo: true, simulation: false });
    let closed = false;
    try {
      const agent = (await operator(host, engine)('POST', '/admin/agents', { name: 'streamer' })).json as { token: string };
      const client = await connect(host, agent.token);
      await client.subscribeResource({ uri: `sandbox://books/${engine.ctx.markets.list()[0]!.tokenIds[0]}` });
      await new Promise((r) => setTimeout(r, 200));
      const t0 = Date.now();
      await close();
      closed = true;
      assert.ok(Date.now() - t0 < 1000, `closed in ${Date.now() - t0} ms`);
    } finally {
      if (!closed) await close();
    }
  });
});

async function eventually(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
