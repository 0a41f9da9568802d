import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deriveSafe } from '@polymarket/builder-relayer-client/dist/builder/derive.js';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ERC20_ABI } from '../../chain/abis.js';
import { createEngine, type Engine, type ReadyLine } from '../../engine.js';
import { POLYGON_WALLET_CONTRACTS } from '../../protocol/contractAddresses.js';
import type { Market } from '../../services/markets/marketService.js';
import { describeFlows, runFlowScript, type FlowRun } from './pythonClients/pythonFlows.js';
import { ensurePythonVenv, type PythonVenv } from './pythonClients/pythonVenv.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLIENTS = [
  { script: 'clob_v1.py', client: 'py-clob-client (V1)' },
  { script: 'clob_v2.py', client: 'py-clob-client-v2' },
  { script: 'relayer.py', client: 'py-builder-relayer-client (+ py-clob-client-v2 from its Safe)' },
] as const;
const WALLETS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'] as const;
const SAFE_FUNDED = ['carol', 'frank', 'grace'] as const;

const venv: PythonVenv = ensurePythonVenv(ROOT);

describe('the stock Python clients, unmodified, against one engine in the polymarket profile on a real anvil chain', { skip: 'skip' in venv ? venv.skip : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'python-clients-'));
  let engine: Engine;
  let ready: ReadyLine;
  const markets = new Map<string, Market>();
  const keys = Object.fromEntries(WALLETS.map((w) => [w, generatePrivateKey()])) as Record<(typeof WALLETS)[number], `0x${string}`>;
  const safes = Object.fromEntries(SAFE_FUNDED.map((w) => [w, deriveSafe(privateKeyToAccount(keys[w]).address, POLYGON_WALLET_CONTRACTS.safeFactory)])) as Record<(typeof SAFE_FUNDED)[number], Address>;
  const spenders = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address];
  const results = new Map<string, FlowRun>();

  before(async () => {
    engine = await createEngine({ dataDir: dir, port: 0, chain: 'anvil', profile: 'polymarket', seedDemo: false, rateLimits: false, serveRenderer: false });
    ready = await engine.listen();
    // One market per script: the scripts run side by side and must not fill each other's orders.
    for (const { script } of CLIENTS) {
      markets.set(script, await engine.ctx.markets.create({ question: `Will ${script} trade here?`, tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false }));
    }
    for (const safe of Object.values(safes)) await engine.ctx.orders.creditCollateral(safe.toLowerCase(), 100_000_000n, 'python client test');
    const env = {
      host: ready.trading,
      relayer: ready.relayer,
      keys,
      safes,
      collateral: engine.ctx.chain.deployment.collateral,
      spenders,
    };
    // The three scripts use their own wallets, so they run side by side against the one engine.
    const runs = await Promise.all(
      CLIENTS.map(async ({ script }) => {
        const market = markets.get(script)!;
        return [script, await runFlowScript((venv as { python: string }).python, script, { ...env, market: { conditionId: market.conditionId, tokenIds: market.tokenIds } })] as const;
      }),
    );
    for (const [script, r] of runs) results.set(script, r);
  });
  after(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describeFlows(CLIENTS, results);

  it('the relayer client\'s Safe transactions changed the chain: the Safe\'s allowances are the last approvals', async () => {
    const pub = engine.ctx.chain.publicClient!;
    const allowance = (spender: Address) => pub.readContract({ address: engine.ctx.chain.deployment.collateral, abi: ERC20_ABI, functionName: 'allowance', args: [safes.grace, spender] });
    assert.equal(await allowance(spenders[0]!), 2_000_000n);
    assert.equal(await allowance(spenders[1]!), 3_000_000n);
  });
});
