import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startAnvil } from './anvilProcess.js';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('the local chain process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'anvil-port-'));
  const chainDir = join(dataDir, 'chain');
  const opts = { chainId: 31337, stateFile: join(chainDir, 'state.json'), portFile: join(chainDir, 'port'), stateIntervalSeconds: 1 };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps its port across restarts of the same data directory, so the rpcUrl a wallet stored stays valid', async () => {
    const first = await startAnvil(opts);
    await first.stop();
    assert.equal(readFileSync(opts.portFile, 'utf8').trim(), String(first.port));
    const second = await startAnvil(opts);
    try {
      assert.equal(second.port, first.port);
      assert.equal(second.rpcUrl, first.rpcUrl);
    } finally {
      await second.stop();
    }
  });

  it('moves to a new port only when the stored one is taken, stores it and says so', async () => {
    const stored = Number(readFileSync(opts.portFile, 'utf8'));
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(stored, '127.0.0.1', r));
    const moves: [number, number][] = [];
    try {
      const moved = await startAnvil({ ...opts, onPortMoved: (from, to) => moves.push([from, to]) });
      await moved.stop();
      assert.notEqual(moved.port, stored);
      assert.deepEqual(moves, [[stored, moved.port]]);
      assert.equal(readFileSync(opts.portFile, 'utf8').trim(), String(moved.port));
    } finally {
      squatter.close();
    }
  });

  it('keeps its directory private (0700) and its state dumps 0600, also after a loosened mode', async () => {
    chmodSync(chainDir, 0o755);
    if (existsSync(opts.stateFile)) chmodSync(opts.stateFile, 0o644);
    const a = await startAnvil(opts);
    await a.stop();
    assert.equal(mode(chainDir), 0o700);
    assert.ok(existsSync(opts.stateFile), 'anvil dumped its state on stop');
    assert.equal(mode(opts.stateFile), 0o600);
  });

  it('ignores a stored port that is not a port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anvil-badport-'));
    try {
      mkdirSync(join(dir, 'chain'));
      writeFileSync(join(dir, 'chain', 'port'), 'banana');
      const a = await startAnvil({ chainId: 31337, stateFile: join(dir, 'chain', 'state.json'), portFile: join(dir, 'chain', 'port') });
      await a.stop();
      assert.equal(readFileSync(join(dir, 'chain', 'port'), 'utf8').trim(), String(a.port));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
