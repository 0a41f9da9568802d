/**
 * Test support for the order service: a hand-built EngineContext on a real SQLite file in a temp dir,
 * markets held in a small in-memory registry, and real EIP-712 order signatures made with viem.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { resolveConfig, type EngineConfig } from '../config.js';
import { predictContractAddresses, LOCAL_EXCHANGE_ADDRESS, LOCAL_EXCHANGE_V2_ADDRESS, LOCAL_NEG_RISK_EXCHANGE_ADDRESS, LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS } from '../protocol/contractAddresses.js';
import { ORDER_TYPES, orderDomain, orderTypedMessage, ZERO_ADDRESS, type Address, type OrderType, type PostOrderBody, type SignedOrder, type SignedOrderV2 } from '../protocol/eip712.js';
import { feeScheduleFromBps } from '../protocol/feeSchedule.js';
import { openDatabase, type Db } from '../store/database.js';
import { WriteBatcher } from '../store/writeBatcher.js';
import { ManualClock } from '../services/clock.js';
import type { EngineContext } from '../http/engineContext.js';
import type { MirrorStatus } from '../services/mirror/mirrorTypes.js';
import type { TradableMarket } from '../services/orders/liveOrder.js';
import { OrderService } from '../services/orders/orderService.js';

export const CHAIN_ID = 31337;
export const T0 = Date.UTC(2030, 0, 1);

export interface TestMarket extends TradableMarket {
  paused: boolean;
  winner: 0 | 1 | null;
}

export function makeMarket(n: number, over: Partial<TestMarket> = {}): TestMarket {
  const hex = n.toString(16).padStart(64, '0');
  return {
    conditionId: `0x${hex}`,
    tokenIds: [`${1000 + n * 2}`, `${1001 + n * 2}`],
    outcomes: ['Yes', 'No'],
    tickSize: 10_000n,
    minOrderSize: 5_000_000n,
    negRisk: false,
    winner: null,
    paused: false,
    // A market made with only a base fee pays the schedule built from it, as MarketService does (decisions §10).
    ...(over.feeRateBps !== undefined && over.feeSchedule === undefined ? { feeSchedule: feeScheduleFromBps(over.feeRateBps) } : {}),
    ...over,
  };
}

/** A minimal market registry with the markets service's read API. */
export class FakeMarkets {
  systemPaused = false;
  readonly markets: TestMarket[] = [];
  add(m: TestMarket): TestMarket {
    this.markets.push(m);
    return m;
  }
  byCondition(id: string): TestMarket | undefined {
    return this.markets.find((m) => m.conditionId === id.toLowerCase());
  }
  byToken(tokenId: string): { market: TestMarket; outcomeIndex: 0 | 1 } | undefined {
    for (const m of this.markets) {
      const i = m.tokenIds.indexOf(tokenId);
      if (i === 0 || i === 1) return { market: m, outcomeIndex: i };
    }
    return undefined;
  }
  list(): TestMarket[] {
    return this.markets;
  }
  pauseState(conditionId: string): 'system_paused' | 'condition_paused' | null {
    if (this.systemPaused) return 'system_paused';
    return this.byCondition(conditionId)?.paused ? 'condition_paused' : null;
  }
}

export interface Harness {
  dir: string;
  db: Db;
  ctx: EngineContext;
  clock: ManualClock;
  markets: FakeMarkets;
  orders: OrderService;
  /** Closes this engine instance (not the directory). */
  close(): void;
  /** Opens a second instance on the same data directory (a restart). */
  reopen(): Promise<Harness>;
  /** Removes the temp directory. */
  cleanup(): void;
}

export async function makeHarness(
  opts: { config?: Partial<EngineConfig>; dir?: string; clock?: ManualClock; markets?: FakeMarkets; mirrorOf?: (conditionId: string) => MirrorStatus | undefined } = {},
): Promise<Harness> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'orders-'));
  const config = resolveConfig({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, ...opts.config });
  const clock = opts.clock ?? new ManualClock(T0);
  const markets = opts.markets ?? new FakeMarkets();
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);
  const operator = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d').address;
  const deployment = predictContractAddresses(operator);
  const chain = {
    enabled: false,
    chainId: CHAIN_ID,
    rpcUrl: null,
    contracts: {
      exchange: LOCAL_EXCHANGE_ADDRESS,
      negRiskExchange: LOCAL_NEG_RISK_EXCHANGE_ADDRESS,
      exchangeV2: LOCAL_EXCHANGE_V2_ADDRESS,
      negRiskExchangeV2: LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS,
      collateral: deployment.collateral,
      conditionalTokens: deployment.conditionalTokens,
      safeFactory: deployment.safeFactory,
      safeSingleton: deployment.safeSingleton,
      multiSend: deployment.multiSend,
      proxyFactory: deployment.proxyFactory,
      relayHub: deployment.relayHub,
    },
    deployment,
    operatorAddress: operator,
    stop: async () => undefined,
  };
  const ctx = { config: { ...config, chainId: CHAIN_ID }, clock, db, writes, markets, chain, ...(opts.mirrorOf ? { mirrorOf: opts.mirrorOf } : {}) } as unknown as EngineContext;
  const orders = new OrderService(ctx);
  (ctx as { orders: OrderService }).orders = orders;
  await orders.init();
  let closed = false;
  const h: Harness = {
    dir,
    db,
    ctx,
    clock,
    markets,
    orders,
    close() {
      if (closed) return;
      closed = true;
      orders.close();
      writes.close();
      db.close();
    },
    reopen() {
      h.close();
      return makeHarness({ ...opts, dir, clock, markets });
    },
    cleanup() {
      h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

let saltCounter = 1;

export interface OrderSpec {
  market: TradableMarket;
  outcome?: 0 | 1;
  side: 'BUY' | 'SELL';
  /** Price in micro-units (520_000 = 0.52). */
  price: bigint;
  /** Shares in micro-units. */
  size: bigint;
  orderType?: OrderType;
  expiration?: bigint;
  salt?: number | string;
  signatureType?: 0 | 1 | 2;
  maker?: Address;
  /** Raw amounts override the price × size computation. */
  makerAmount?: bigint;
  takerAmount?: bigint;
  verifyingContract?: Address;
  chainId?: number;
  owner?: string;
  postOnly?: boolean;
  /** Signed feeRateBps; default '0'. */
  feeRateBps?: string;
}

/** The token and amounts a test order spec stands for (size × price, or the spec's own amounts). */
function specAmounts(spec: OrderSpec): { tokenId: string; makerAmount: bigint; takerAmount: bigint } {
  const cost = (spec.price * spec.size) / 1_000_000n;
  return {
    tokenId: spec.market.tokenIds[spec.outcome ?? 0]!,
    makerAmount: spec.makerAmount ?? (spec.side === 'BUY' ? cost : spec.size),
    takerAmount: spec.takerAmount ?? (spec.side === 'BUY' ? spec.size : cost),
  };
}

/** A POST /order body signed by `account` with viem (real EIP-712 signature). */
export async function signedBody(account: PrivateKeyAccount, spec: OrderSpec): Promise<PostOrderBody> {
  const { tokenId, makerAmount, takerAmount } = specAmounts(spec);
  const struct = {
    salt: spec.salt ?? saltCounter++,
    maker: spec.maker ?? account.address,
    signer: account.address,
    taker: ZERO_ADDRESS,
    tokenId,
    makerAmount: makerAmount.toString(),
    takerAmount: takerAmount.toString(),
    expiration: (spec.expiration ?? 0n).toString(),
    nonce: '0',
    feeRateBps: spec.feeRateBps ?? '0',
    side: spec.side,
    signatureType: spec.signatureType ?? 0,
  } as const;
  const verifyingContract = spec.verifyingContract ?? (spec.market.negRisk ? LOCAL_NEG_RISK_EXCHANGE_ADDRESS : LOCAL_EXCHANGE_ADDRESS);
  const signature = await account.signTypedData({
    domain: orderDomain({ chainId: spec.chainId ?? CHAIN_ID, verifyingContract }),
    types: ORDER_TYPES,
    primaryType: 'Order',
    message: orderTypedMessage(struct),
  });
  const order: SignedOrder = { ...struct, signature, conditionId: spec.market.conditionId, referrer: ZERO_ADDRESS };
  return {
    order,
    owner: spec.owner ?? account.address,
    orderType: spec.orderType ?? 'GTC',
    ...(spec.postOnly !== undefined ? { postOnly: spec.postOnly } : {}),
  };
}

/** V2 EIP-712 types (clob-client-v2's CTF_EXCHANGE_V2_ORDER_STRUCT), for signing test orders with viem. */
export const ORDER_V2_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
} as const;

const ZERO_BYTES32 = `0x${'0'.repeat(64)}` as const;

/**
 * A V2 POST /order body signed by `account` with viem: domain version "2" (or `domainVersion`), the
 * local V2 exchange (or `verifyingContract`), `expiration` sent unsigned beside the struct as
 * clob-client-v2 does.
 */
export async function signedBodyV2(account: PrivateKeyAccount, spec: OrderSpec & { domainVersion?: string }): Promise<PostOrderBody> {
  const { tokenId, makerAmount, takerAmount } = specAmounts(spec);
  const struct = {
    salt: spec.salt ?? saltCounter++,
    maker: spec.maker ?? account.address,
    signer: account.address,
    tokenId,
    makerAmount: makerAmount.toString(),
    takerAmount: takerAmount.toString(),
    side: spec.side,
    signatureType: spec.signatureType ?? 0,
    timestamp: String(Date.now()),
    metadata: ZERO_BYTES32,
    builder: ZERO_BYTES32,
  } as const;
  const verifyingContract = spec.verifyingContract ?? (spec.market.negRisk ? LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS : LOCAL_EXCHANGE_V2_ADDRESS);
  const signature = await account.signTypedData({
    domain: { name: 'Polymarket CTF Exchange', version: spec.domainVersion ?? '2', chainId: spec.chainId ?? CHAIN_ID, verifyingContract },
    types: ORDER_V2_TYPES,
    primaryType: 'Order',
    message: { ...struct, salt: BigInt(struct.salt), tokenId: BigInt(tokenId), makerAmount, takerAmount, timestamp: BigInt(struct.timestamp), side: struct.side === 'BUY' ? 0 : 1 },
  });
  const order: SignedOrderV2 = { ...struct, expiration: (spec.expiration ?? 0n).toString(), signature, conditionId: spec.market.conditionId, referrer: ZERO_ADDRESS };
  return { order, owner: spec.owner ?? account.address, orderType: spec.orderType ?? 'GTC', ...(spec.postOnly !== undefined ? { postOnly: spec.postOnly } : {}) };
}

export function identityOf(account: PrivateKeyAccount): { address: string; apiKey: string } {
  return { address: account.address.toLowerCase(), apiKey: '00000000-0000-4000-8000-000000000000' };
}

/** Fixed test keys (the first three are anvil's well-known dev keys): deterministic, never funded anywhere real. */
export const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b05f3a0a3b3f0d1e7a0d4f9c',
] as const;

export const accounts = KEYS.map((k) => privateKeyToAccount(k));

export const units = (n: number | string): bigint => {
  const [w, f = ''] = String(n).split('.');
  return BigInt(w!) * 1_000_000n + BigInt((f + '000000').slice(0, 6));
};
