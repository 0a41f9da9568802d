import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient, OrderType, Side } from '@polymarket/clob-client-v2';
import type { Engine } from '../../engine.js';
import { formatUnits } from '../../protocol/amounts.js';
import type { BookLevelText, BookSnapshot } from '../../protocol/bookHash.js';
import type { Market } from '../../services/markets/marketService.js';
import { PUBLIC_MARKET_ACCOUNT } from '../../services/orders/publicDepth.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';
import { UpstreamKit } from '../../testkit/upstreamKit.js';
import { describeFlows, runFlowScript, type FlowRun } from './pythonClients/pythonFlows.js';
import { ensurePythonVenv } from './pythonClients/pythonVenv.js';
import { until } from '../../testkit/untilKit.js';

/**
 * Issue 22 item 3: an unmodified bot trades a mirrored market by its public token id. The public exchange
 * is a second engine in the polymarket profile (upstreamKit); the engine under test mirrors three of its
 * markets at start (`--mirror <condition id>`, so no Gamma is needed) and listens on a real port. Each
 * client trades its own market (a 0.01 tick, a 0.001 tick, a neg-risk one), so their orders and the
 * prints made for them never meet.
 * (@polymarket/clob-client V1 is driven the same way in mirrorRoutes.test.ts.)
 */

/** What GET /book answers (the fields these tests read). */
type BookJson = Pick<BookSnapshot, 'bids' | 'asks'>;

const best = (levels: BookLevelText[], pick: (...v: number[]) => number) => pick(...levels.map((l) => Number(l.price)));

describe('stock clients trade a mirrored public market by its public token id', () => {
  let upstream: UpstreamKit;
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;
  /** Upstream markets by the client that trades their mirror. */
  const markets = new Map<'v2' | 'py_v1' | 'py_v2', Market>();
  const localBook = async (tokenId: string) => (await (await fetch(`${host}/book?token_id=${tokenId}`)).json()) as BookJson;
  /** The local book shows the public depth of every mirrored market (both sides). */
  const mirrored = (m: Market) => until(`the public depth of ${m.conditionId}`, async () => {
    const b = await localBook(m.tokenIds[0]);
    return b.bids?.length && b.asks?.length ? b : undefined;
  });

  before(async () => {
    upstream = await UpstreamKit.start({ simulation: false });
    const all = upstream.markets();
    markets.set('v2', upstream.market());
    markets.set('py_v1', all.find((m) => m.tickSize === 1_000n)!);
    markets.set('py_v2', all.find((m) => m.negRisk)!);
    ({ engine, host, close } = await startListeningEngine({
      profile: 'polymarket',
      simulation: false,
      upstreamClob: upstream.base,
      upstreamGamma: upstream.base,
      upstreamWs: upstream.wsUrl,
      mirrors: [...markets.values()].map((m) => m.conditionId),
    }));
    for (const m of markets.values()) await mirrored(m);
  });
  after(async () => {
    await close?.();
    await upstream?.close();
  });

  describe('@polymarket/clob-client-v2', () => {
    const bot = Wallet.createRandom();
    let client: ClobClient;
    let market: Market;
    let yes: string;

    before(async () => {
      market = markets.get('v2')!;
      yes = market.tokenIds[0];
      const creds = await new ClobClient({ host, chain: 137, signer: bot }).createOrDeriveApiKey();
      client = new ClobClient({ host, chain: 137, signer: bot, creds });
      await engine.ctx.orders.creditCollateral(bot.address.toLowerCase(), 1_000_000_000n, 'test');
    });

    it('reads the market by its public token id: tick size, neg-risk and fee details are the public market\'s', async () => {
      const publicClient = new ClobClient({ host: upstream.base, chain: 137 });
      assert.equal(await client.getTickSize(yes), await publicClient.getTickSize(yes));
      assert.equal(await client.getTickSize(yes), '0.01');
      assert.equal(await client.getNegRisk(yes), await publicClient.getNegRisk(yes));
      const local = await client.getClobMarketInfo(market.conditionId);
      const remote = await publicClient.getClobMarketInfo(market.conditionId);
      assert.deepEqual([local.mts, local.nr, local.fd, local.t], [remote.mts, remote.nr, remote.fd, remote.t]);
      assert.equal(await client.getFeeRateBps(yes), await publicClient.getFeeRateBps(yes));
    });

    it('a marketable FOK buy, priced by the client from the mirrored book, fills against the public depth (maker: public-market)', async () => {
      const bestAsk = best((await localBook(yes)).asks, Math.min);
      const placed = await client.createAndPostMarketOrder({ tokenID: yes, side: Side.BUY, amount: 3 }, undefined, OrderType.FOK);
      assert.equal(placed.success, true, JSON.stringify(placed));
      assert.equal(placed.status, 'matched', JSON.stringify(placed));
      assert.equal(placed.tradeIDs?.length, 1, JSON.stringify(placed));
      const [trade] = await client.getTrades({ id: placed.tradeIDs![0] });
      assert.equal(trade!.trader_side, 'TAKER');
      assert.equal(Number(trade!.price), bestAsk);
      assert.deepEqual(
        trade!.maker_orders.map((o) => o.maker_address.toLowerCase()),
        [PUBLIC_MARKET_ACCOUNT],
      );
    });

    it('a resting limit buy fills when the public market prints at its price, and the bot sees both trades in its history', async () => {
      const book = await localBook(yes);
      const price = Math.round((best(book.bids, Math.max) + 0.01) * 100) / 100;
      assert.ok(price < best(book.asks, Math.min), 'the order rests inside the spread');
      const resting = await client.createAndPostOrder({ tokenID: yes, price, side: Side.BUY, size: 5 }, undefined, OrderType.GTC);
      assert.equal(resting.status, 'live', JSON.stringify(resting));
      // Nothing public fills it until the public market trades there.
      assert.equal((await client.getOrder(resting.orderID)).status, 'LIVE');
      await upstream.trade(market.conditionId, price.toFixed(2), '20');
      const filled = await until('the resting order filled by the public print', async () => {
        const o = await client.getOrder(resting.orderID);
        return o.status === 'MATCHED' ? o : undefined;
      });
      assert.equal(filled.size_matched, '5');
      const trades = await client.getTrades({ market: market.conditionId });
      assert.equal(trades.length, 2, JSON.stringify(trades));
      const maker = trades.find((t) => t.trader_side === 'MAKER')!;
      assert.ok(maker, JSON.stringify(trades));
      assert.equal(Number(maker.price), price);
      assert.equal(Number(maker.size), 5);
      assert.deepEqual(
        maker.maker_orders.map((o) => o.order_id),
        [resting.orderID],
      );
      assert.ok(trades.some((t) => t.trader_side === 'TAKER'));
    });
  });

  const venv = ensurePythonVenv(new URL('../../../', import.meta.url).pathname);
  const PYTHON = [
    { script: 'mirror_v1.py', client: 'py-clob-client (V1)', market: 'py_v1' },
    { script: 'mirror_v2.py', client: 'py-clob-client-v2', market: 'py_v2' },
  ] as const;

  describe('the stock Python clients', { skip: 'skip' in venv ? venv.skip : false }, () => {
    const results = new Map<string, FlowRun>();

    before(async () => {
      const keys = { henry: Wallet.createRandom(), ida: Wallet.createRandom() };
      for (const w of Object.values(keys)) await engine.ctx.orders.creditCollateral(w.address.toLowerCase(), 1_000_000_000n, 'test');
      const env = { host, upstream: upstream.base, publicMarket: PUBLIC_MARKET_ACCOUNT, keys: Object.fromEntries(Object.entries(keys).map(([n, w]) => [n, w.privateKey])) };
      // The scripts ask for the upstream print that fills their resting order (flows.ask).
      const ask = async (request: Record<string, unknown>) => {
        const trade = request.upstreamTrade as { conditionId: string; price: string; size: string } | undefined;
        if (!trade) throw new Error(`unknown request ${JSON.stringify(request)}`);
        await upstream.trade(trade.conditionId, trade.price, trade.size);
        return null;
      };
      const runs = await Promise.all(
        PYTHON.map(async ({ script, market: which }) => {
          const m = markets.get(which)!;
          const market = { conditionId: m.conditionId, tokenIds: m.tokenIds, tickSize: formatUnits(m.tickSize), negRisk: m.negRisk };
          return [script, await runFlowScript((venv as { python: string }).python, script, { ...env, market }, ask)] as const;
        }),
      );
      for (const [script, r] of runs) results.set(script, r);
    });

    describeFlows(PYTHON, results);
  });
});
