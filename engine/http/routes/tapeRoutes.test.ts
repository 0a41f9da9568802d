import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { examplesDir } from '../../services/tapes/tapeService.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';

describe('tape routes (docs/tapes.md)', () => {
  it('list the tapes of the data directory, switch recording, and start a replay by name; all need the operator token', async () => {
    const { engine, host, close } = await startListeningEngine({ simulation: false });
    try {
      const auth = { authorization: `Bearer ${engine.ctx.secrets.operatorToken}` };
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(host + path, { method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      };
      assert.equal((await fetch(host + '/admin/tapes')).status, 401);
      assert.deepEqual((await call('GET', '/admin/tapes')).json, { recording: false, tapes: [] });
      assert.deepEqual((await call('POST', '/admin/tapes/recording', { enabled: true })).json, { recording: true });
      assert.equal((await call('POST', '/admin/tapes/recording', { enabled: 'yes' })).status, 400);

      const tapes = join(engine.ctx.config.dataDir, 'tapes');
      mkdirSync(tapes, { recursive: true });
      copyFileSync(join(examplesDir(), 'example-calm-market.jsonl.gz'), join(tapes, 'copied.jsonl.gz'));
      const listed = (await call('GET', '/admin/tapes')).json as { recording: boolean; tapes: Array<Record<string, unknown>> };
      assert.equal(listed.recording, true);
      assert.equal(listed.tapes.length, 1);
      const row = listed.tapes[0]!;
      assert.equal(row.name, 'copied.jsonl.gz');
      assert.match(row.conditionId as string, /^0x[0-9a-f]{64}$/);
      assert.ok((row.events as number) > 100);
      assert.equal(row.day, new Date(row.startedAt as number).toISOString().slice(0, 10));

      const started = await call('POST', '/admin/replays', { tape: 'copied' });
      assert.equal(started.status, 201, JSON.stringify(started.json));
      assert.equal(started.json.conditionId, row.conditionId);
      const market = (await (await fetch(`${host}/markets/${row.conditionId}`)).json()) as { question: string };
      assert.equal(market.question, row.question);
      assert.equal((await call('GET', `/admin/replays/${started.json.replayId as string}`)).status, 200);
    } finally {
      await close();
    }
  });
});
