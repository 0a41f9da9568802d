import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createEngine } from '../../engine.js';

test('on a real chain, a market is prepared with the registry ids and its resolution reported', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'market-chain-'));
  const engine = await createEngine({ dataDir: dir, chain: 'anvil', seedDemo: false, rateLimits: false });
  try {
    const { ctx } = engine;
    const m = await ctx.markets.create({ question: 'Will the chain agree?', tickSize: 10_000n, minOrderSize: 5_000_000n });
    assert.equal(m.chainPrepared, true);
    const { publicClient } = await ctx.chain.ready();
    const ctf = { address: ctx.chain.contracts.conditionalTokens, abi: ctx.chain.abis.conditionalTokens } as const;
    assert.equal(await publicClient.readContract({ ...ctf, functionName: 'getOutcomeSlotCount', args: [m.conditionId] }), 2n);
    for (const i of [0, 1] as const) {
      const collection = await publicClient.readContract({ ...ctf, functionName: 'getCollectionId', args: [`0x${'00'.repeat(32)}`, m.conditionId, 1n << BigInt(i)] });
      const position = await publicClient.readContract({ ...ctf, functionName: 'getPositionId', args: [ctx.chain.contracts.collateral, collection] });
      assert.equal(position.toString(), m.tokenIds[i], `token id of outcome ${i} is the chain's position id`);
    }
    const resolved = await ctx.markets.resolve(m.conditionId, 1);
    assert.equal(resolved.chainReported, true);
    assert.equal(await publicClient.readContract({ ...ctf, functionName: 'payoutDenominator', args: [m.conditionId] }), 1n);
    assert.equal(await publicClient.readContract({ ...ctf, functionName: 'payoutNumerators', args: [m.conditionId, 1n] }), 1n);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
