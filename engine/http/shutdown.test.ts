import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

test('SIGTERM exits 0 within the grace although clients hold an idle keep-alive socket and a half-sent request, and the request in flight is answered', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--chain', 'none', '--data-dir', dataDir, '--port', '0', '--no-sim', '--no-demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<{ trading: string; operatorToken: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`engine exited ${code} before its ready line`)));
  });
  const port = Number(new URL(ready.trading).port);

  // An idle keep-alive connection after one answered request (fastify's side).
  const idle = await open(port);
  idle.write(`GET /markets HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
  await new Promise((r) => idle.once('data', r));
  // A client trickling its request head and never finishing it.
  const trickle = await open(port);
  trickle.write(`GET /markets HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
  // A write in flight when the signal arrives: sent whole on a connection the server has accepted (a fetch
  // started 5 ms before the signal could still be connecting on a loaded machine, and then it is refused).
  const body = JSON.stringify({ address: '0x1111111111111111111111111111111111111111', amount: '5' });
  const writer = await open(port);
  const answer = new Promise<string>((resolve) => {
    let got = '';
    writer.on('data', (d: Buffer) => (got += d.toString()));
    writer.on('close', () => resolve(got));
    writer.on('error', () => resolve(got));
  });
  writer.write(
    `POST /admin/faucet HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${ready.operatorToken}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await new Promise((r) => setTimeout(r, 50));
  const t0 = Date.now();
  child.kill('SIGTERM');
  const code = await exited;
  const ms = Date.now() - t0;
  assert.equal(code, 0);
  assert.ok(ms < 3000, `exited after ${ms} ms`);
  const answered = await answer;
  assert.match(answered, /^HTTP\/1\.1 200 /, `the request in flight was answered before the exit; got ${JSON.stringify(answered.slice(0, 80))}`);
  idle.destroy();
  trickle.destroy();
});
