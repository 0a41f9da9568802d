import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClientHttpError } from './clientHttpError.js';
import { MirrorClient } from './mirrorClient.js';

interface Seen {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

function recorder(answer: (s: Seen) => { status?: number; json: unknown }) {
  const seen: Seen[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const s: Seen = { method: init?.method ?? 'GET', url: new URL(String(input)), headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body === undefined ? undefined : JSON.parse(String(init.body)) };
    seen.push(s);
    const r = answer(s);
    return new Response(JSON.stringify(r.json), { status: r.status ?? 200 });
  }) as typeof fetch;
  return { seen, fetchImpl };
}

test('every mirror route is called with the operator token, its method, path and JSON body', async () => {
  const { seen, fetchImpl } = recorder(() => ({ json: {} }));
  const c = new MirrorClient('http://x.test/', 'tok', fetchImpl);
  await c.search('fed rates', 5);
  await c.start('fed-decision-in-december');
  await c.list();
  await c.stop('0xabc');
  await c.tapes();
  await c.setRecording(true);
  await c.replay('0xabc-2026-11-27.jsonl.gz', 10);
  await c.replayReport('r1');
  assert.deepEqual(
    seen.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`),
    [
      'GET /admin/mirrors/search?q=fed+rates&limit=5',
      'POST /admin/mirrors',
      'GET /admin/mirrors',
      'DELETE /admin/mirrors/0xabc',
      'GET /admin/tapes',
      'POST /admin/tapes/recording',
      'POST /admin/replays',
      'GET /admin/replays/r1',
    ],
  );
  assert.ok(seen.every((s) => s.headers.authorization === 'Bearer tok'));
  assert.deepEqual(seen[1]!.body, { market: 'fed-decision-in-december' });
  assert.deepEqual(seen[5]!.body, { enabled: true });
  assert.deepEqual(seen[6]!.body, { tape: '0xabc-2026-11-27.jsonl.gz', speed: 10 });
  assert.equal(seen[2]!.body, undefined);
});

test('a search without a limit sends only the words, and a replay without a speed sends only the tape', async () => {
  const { seen, fetchImpl } = recorder(() => ({ json: [] }));
  const c = new MirrorClient('http://x.test', 'tok', fetchImpl);
  await c.search('a & b');
  await c.replay('t.jsonl.gz');
  assert.equal(seen[0]!.url.searchParams.get('q'), 'a & b');
  assert.equal(seen[0]!.url.searchParams.has('limit'), false);
  assert.deepEqual(seen[1]!.body, { tape: 't.jsonl.gz' });
});

test('a refused call throws the status, the stable code and the sentence of the engine', async () => {
  const { fetchImpl } = recorder(() => ({ status: 404, json: { error: 'mirror_not_found', message: 'No public market has that slug.' } }));
  const c = new MirrorClient('http://x.test', 'tok', fetchImpl);
  await assert.rejects(c.start('nope'), (e: unknown) => e instanceof ClientHttpError && e.status === 404 && e.code === 'mirror_not_found');
});

test('without the operator token no request is sent and the error says where the token is', async () => {
  const { seen, fetchImpl } = recorder(() => ({ json: [] }));
  await assert.rejects(new MirrorClient('http://x.test', undefined, fetchImpl).list(), /operator token/);
  assert.equal(seen.length, 0);
});
