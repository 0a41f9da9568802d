import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run exchange: clock flags', () => {
  it('--clock fast runs the scenario from the --start time and leaves its report and trade export under <data>/runs/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-fast-'));
    try {
      const file = join(dir, 'short.yaml');
      writeFileSync(file, "name: short\ndurationSeconds: 90\nmarkets: [0]\nevents:\n  - at: 30\n    shock: { market: 0, price: '0.60' }\n");
      const r = await run(['--clock', 'fast', '--scenario', file, '--data-dir', join(dir, 'data'), '--no-sim', '--start', '2030-01-01T00:00:00Z']);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout.trim()) as { simulatedSeconds: number; trades: number; failedSteps: number; runDir: string };
      assert.equal(report.simulatedSeconds, 90);
      assert.equal(report.failedSteps, 0);
      assert.ok(report.runDir.startsWith(join(dir, 'data', 'runs', '2030-01-01T00-00-00-000Z-fast-seed1')), report.runDir);
      const run1 = JSON.parse(readFileSync(join(report.runDir, 'report.json'), 'utf8')) as { now: number; trades: number };
      assert.equal(run1.now, Date.UTC(2030, 0, 1) + 90_000);
      assert.equal(run1.trades, report.trades);
      assert.equal(readFileSync(join(report.runDir, 'trades.jsonl'), 'utf8').trim().split('\n').filter(Boolean).length, report.trades);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C during a --clock fast run on a temporary directory removes the directory', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'cli-sigint-'));
    try {
      const file = join(tmp, 'long.yaml');
      writeFileSync(file, 'name: long\ndurationSeconds: 86400\nmarkets: [0, 1, 2, 3]\nevents: []\n');
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--clock', 'fast', '--scenario', file], { env: { ...process.env, TMPDIR: tmp, XDG_DATA_HOME: join(tmp, 'xdg') }, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const temporary = () => readdirSync(tmp).filter((f) => f.startsWith('exchange-fast-'));
      for (let i = 0; i < 600 && temporary().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(temporary().length, 1, 'the run made its temporary directory');
      await new Promise((r) => setTimeout(r, 1500)); // into the run
      child.kill('SIGINT');
      assert.equal(await exited, 130);
      assert.deepEqual(temporary(), []);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('refuses --fast with another --clock, --speed off the real clock, and a --start that is not a time', async () => {
    for (const [args, message] of [
      [['--fast', '--clock', 'stepped'], /--fast is --clock fast; it contradicts --clock stepped/],
      [['--clock', 'stepped', '--speed', '5'], /--speed applies to --clock real/],
      [['--clock', 'fast'], /--clock fast runs a scenario or replays to their end: add --scenario <file> or --replay <tape>/],
      [['--start', 'yesterday'], /--start must be unix milliseconds or an ISO time/],
      [['--speed', 'fast'], /--speed must be a number/],
    ] as const) {
      const r = await run([...args, '--chain', 'none', '--data-dir', join(tmpdir(), 'cli-never-created')]);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, message);
    }
    assert.equal(existsSync(join(tmpdir(), 'cli-never-created')), false);
  });
});
