import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { isPortFree, pickPort } from './stablePort.js';

function listen(): Promise<{ srv: Server; port: number }> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => resolve({ srv, port: (srv.address() as { port: number }).port }));
  });
}

test('a port someone listens on is not free, and pickPort then falls back to 0', async () => {
  const { srv, port } = await listen();
  assert.equal(await isPortFree(port), false);
  assert.equal(await pickPort(port), 0);
  await new Promise((r) => srv.close(r));
});

test('a free port is kept', async () => {
  const { srv, port } = await listen();
  await new Promise((r) => srv.close(r));
  assert.equal(await pickPort(port), port);
});
