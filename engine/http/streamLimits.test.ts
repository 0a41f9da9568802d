import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { accounts, units } from '../services/orders/orderTestKit.js';
import { createL1Headers } from '../client/createL1Headers.js';
import { createL2Headers } from '../client/createL2Headers.js';
import { StreamTestEngine, type HeaderBuilders } from './streamTestKit.js';

const HEADERS: HeaderBuilders = { l1: async (a, c, n, ts) => ({ ...(await createL1Headers(a, c, n, ts)) }), l2: (cr, addr, req) => ({ ...createL2Headers(cr, addr as `0x${string}`, req) }) };
const [alice] = accounts as [PrivateKeyAccount];
type Msg = Record<string, unknown>;

describe('the stream limits a shared sandbox needs', () => {
  const t = new StreamTestEngine(HEADERS);
  let yes: string;
  let no: string;

  before(async () => {
    await t.start([alice]);
    [yes, no] = t.market.tokenIds;
    await t.place(alice, { side: 'BUY', price: 400_000n, size: units(10) });
  });
  after(() => t.close());

  it('sends one book per distinct asset however often a subscribe repeats it, and counts every listed id against the limit', async () => {
    const s = await t.socket('market');
    s.send({ assets_ids: [...Array<string>(200).fill(yes), ...Array<string>(200).fill(no)], type: 'market' });
    const got = (await s.drain()) as Msg[];
    assert.deepEqual(got.map((m) => [m.event_type, m.asset_id]), [['book', yes], ['book', no]]);

    // Already following yes: repeating it 800 times is still 800 ids, refused before any book is built.
    s.send({ operation: 'subscribe', assets_ids: Array<string>(800).fill(yes) });
    const refused = (await s.drain()) as Msg[];
    assert.equal(refused.length, 1);
    assert.equal(refused[0]!.event_type, 'error');
    assert.match(String(refused[0]!.message), /at most 500 asset ids per message \(got 800\)/);
    s.close();
  });

  it('replays once per distinct asset when resume_from comes with a repeated id', async () => {
    const s = await t.socket('market');
    s.send({ assets_ids: [yes], type: 'market' });
    const [book] = (await s.drain()) as Msg[];
    await t.place(alice, { side: 'BUY', price: 300_000n, size: units(1) });
    await t.place(alice, { side: 'BUY', price: 310_000n, size: units(1) });
    await s.drain();
    s.send({ operation: 'subscribe', assets_ids: Array<string>(300).fill(yes), resume_from: { [yes]: book!.seq } });
    const replayed = (await s.drain()) as Msg[];
    assert.deepEqual(replayed.map((m) => m.seq), [(book!.seq as number) + 1, (book!.seq as number) + 2]);
    s.close();
  });

  it('builds nothing more for a socket that closed while its subscribe was being answered', async () => {
    const market = t.engine.ctx.streams.market;
    const bookEvent = market.bookEvent.bind(market);
    let built = 0;
    market.bookEvent = (a) => {
      built++;
      return bookEvent(a);
    };
    // Any unread byte is too many: the first book closes the socket as a slow consumer.
    t.engine.ctx.streams.limits.maxBufferedBytes = -1;
    try {
      const s = await t.socket('market');
      s.send({ assets_ids: [yes, no], type: 'market' });
      await s.until(() => s.closed !== undefined);
      assert.equal(s.closed!.code, 4008);
      assert.equal(built, 1, 'the second asset’s book was never built');
    } finally {
      t.engine.ctx.streams.limits.maxBufferedBytes = 4 * 1024 * 1024;
      market.bookEvent = bookEvent;
    }
  });
});
