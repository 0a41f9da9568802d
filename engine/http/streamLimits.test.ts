import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { accounts, units } from '../testkit/orderKit.js';
import { createL1Headers } from '../client/createL1Headers.js';
import { createL2Headers } from '../client/createL2Headers.js';
import { StreamTestEngine, type HeaderBuilders } from '../testkit/streamKit.js';

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

  it('closes and cuts a socket that sends more than its message budget (50 a second, bursts of 100), and keeps one within it', async () => {
    const ok = await t.socket('market');
    for (let i = 0; i < 100; i++) ok.send('PING');
    await ok.until(() => ok.messages.filter((m) => m === 'PONG').length === 100);
    assert.equal(ok.closed, undefined, 'a burst of 100 is within the budget');
    ok.close();

    const flood = await t.socket('market');
    for (let i = 0; i < 1000; i++) flood.send('PING');
    await flood.until(() => flood.closed !== undefined);
    assert.equal(flood.closed!.code, 4029);
    assert.match(flood.closed!.reason, /more than 50 messages a second \(bursts of 100\)/);
    const pongs = flood.messages.filter((m) => m === 'PONG').length;
    assert.ok(pongs < 200, `answered about the burst, not the flood (${pongs})`);
  });

  it('closes a user socket that does not authenticate in time with 4001, and any socket silent past the idle timeout with 4010', async () => {
    const limits = t.engine.ctx.streams.limits;
    limits.loginTimeoutMs = 300;
    limits.idleTimeoutMs = 600;
    try {
      const anonymous = await t.socket('user');
      const authed = await t.socket('user');
      const c = t.creds.get(alice.address)!;
      authed.send({ auth: { apiKey: c.key, secret: c.secret, passphrase: c.passphrase }, type: 'user' });
      const silent = await t.socket('market');
      const chatty = await t.socket('market');
      const opened = Date.now();
      await anonymous.until(() => anonymous.closed !== undefined, 3000);
      assert.deepEqual(anonymous.closed, { code: 4001, reason: 'no auth message within 0.3 s of opening' });
      assert.equal(authed.closed, undefined, 'an authenticated socket has no login deadline');
      // The chatty one PINGs every 150 ms; the silent one never speaks.
      while (silent.closed === undefined && Date.now() - opened < 3000) {
        chatty.send('PING');
        authed.send('PING');
        await new Promise((r) => setTimeout(r, 150));
      }
      assert.equal(silent.closed?.code, 4010);
      assert.match(silent.closed!.reason, /silent for 0.6 s/);
      assert.ok(Date.now() - opened >= 550, 'not before the idle timeout');
      assert.equal(chatty.closed, undefined);
      assert.equal(authed.closed, undefined);
      chatty.close();
      authed.close();
    } finally {
      limits.loginTimeoutMs = 10_000;
      limits.idleTimeoutMs = 60_000;
    }
  });

  it('refuses stream sockets past the cap with 503, so HTTP keeps its share of connections', async () => {
    const streams = t.engine.ctx.streams;
    const held = [await t.socket('market')];
    // The earlier tests' sockets finish closing first: then only `held` is open.
    await held[0]!.until(() => streams.connections === 1);
    streams.limits.maxSockets = 1;
    try {
      await assert.rejects(t.socket('user'), /Unexpected server response: 503/);
      const res = await fetch(`http://127.0.0.1:${t.port}/ok`);
      assert.equal(res.status, 200);
      held[0]!.close();
      await held[0]!.until(() => held[0]!.closed !== undefined);
      await new Promise((r) => setTimeout(r, 50));
      held.push(await t.socket('market'));
    } finally {
      streams.limits.maxSockets = 3072;
      for (const h of held) h.close();
    }
  });
});
