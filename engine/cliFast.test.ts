import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

test('--seed must be a whole number', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, '--seed', '1.5', '--chain', 'none'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /--seed must be a whole number ≥ 0, not '1.5'/);
});

test('Ctrl-C during a --fast run removes its temporary data directory', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cli-fast-'));
  try {
    const file = join(tmp, 'long.yaml');
    writeFileSync(file, 'name: long\ndurationSeconds: 86400\nmarkets: [0, 1, 2, 3]\nevents: []\n');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--scenario', file, '--fast'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
    const dirs = () => readdirSync(tmp).filter((f) => f.startsWith('exchange-fast-'));
    const until = Date.now() + 30_000;
    while (dirs().length === 0 && Date.now() < until) await sleep(100);
    assert.equal(dirs().length, 1, 'the run made its temporary data directory');
    await sleep(1_500); // into the run
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.deepEqual(dirs(), []);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
