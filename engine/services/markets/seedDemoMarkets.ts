import { randomBytes } from 'node:crypto';
import secp256k1 from 'secp256k1';
import { bytesToHex, hexToBytes, type Address } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { ONE } from '../../protocol/amounts.js';
import { ZERO_ADDRESS, orderVerifyingContract, type OrderStruct, type PostOrderBody, type Side } from '../../protocol/eip712.js';
import { orderDigest } from '../crypto/orderDigest.js';
import { MarketRepo } from '../../store/marketRepo.js';
import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';
import type { Market, MarketService } from './marketService.js';

export const DEMO_SEEDED_KEY = 'demo_seeded_at';
export const DEMO_MAKER_KEY = 'demo_market_maker_private_key';

/** Paper collateral of the demo market maker. */
const MAKER_COLLATERAL = 1_000_000n * ONE;
/** Complete sets minted per market (each costs 1 collateral): the maker's inventory of both outcomes. */
const MINT_SHARES = 5_000n * ONE;
/** Shares per level, best level first. */
const LEVEL_SHARES = [150n, 300n, 500n, 800n, 1_200n].map((s) => s * ONE);

interface DemoMarket {
  /** Questions name dates relative to the end date, so a demo seeded in any year reads sensibly. */
  question: (end: Date) => string;
  description: (end: Date) => string;
  outcomes?: [string, string];
  tickSize: bigint;
  /** Fair price of outcome 0 (micro-units, on the tick). */
  fair: bigint;
  negRisk?: boolean;
  endInDays: number;
}

const DEMO_MARKETS: DemoMarket[] = [
  {
    question: (end) => `Will Bitcoin close above $150,000 on ${day(end)}?`,
    description: (end) => `Resolves Yes if the BTC/USD daily close reported by major spot exchanges on ${day(end)} is above $150,000. Demo market of the local exchange.`,
    tickSize: 10_000n,
    fair: 380_000n,
    endInDays: 180,
  },
  {
    question: (end) => `Will the central bank cut its policy rate by ${day(end)}?`,
    description: (end) => `Resolves Yes if a policy rate announced on or before ${day(end)} is lower than the rate in force today. Demo market with a 0.001 tick.`,
    tickSize: 1_000n,
    fair: 617_000n,
    endInDays: 45,
  },
  {
    question: (end) => `Will a crewed mission land on Mars before ${end.getUTCFullYear() + 4}?`,
    description: (end) => `Resolves Yes if humans land on the surface of Mars before 1 January ${end.getUTCFullYear() + 4}. Demo market with a coarse 0.1 tick.`,
    tickSize: 100_000n,
    fair: 300_000n,
    endInDays: 365,
  },
  {
    question: (end) => `Will Alice Martin win the ${end.getUTCFullYear()} Sandbox City mayoral election?`,
    description: (end) => `One question of a neg-risk event: resolves Yes if Alice Martin is declared the winner of the ${end.getUTCFullYear()} Sandbox City mayoral election. Demo neg-risk market.`,
    outcomes: ['Yes', 'No'],
    tickSize: 10_000n,
    fair: 450_000n,
    negRisk: true,
    endInDays: 120,
  },
];

/** What seeding uses: the infrastructure, market creation and the order service's credit and placement (wired by the composition root). */
export type SeedDeps = Pick<Infra, 'chain' | 'clock' | 'ids' | 'config' | 'db' | 'writes'> & {
  readonly markets: Pick<MarketService, 'create' | 'list'>;
  readonly orders: Pick<OrderService, 'creditCollateral' | 'place'>;
};

/**
 * Seeds a FRESH data directory with four demo binary markets (ticks 0.01, 0.001, 0.1 and a neg-risk one
 * at 0.01, each in its own event) and real resting liquidity on both sides. The liquidity comes from a
 * demo market-maker wallet (its key kept in the settings table) that signs ordinary EIP-712 orders and
 * places them through the order service like any trader:
 *   1. it is credited paper collateral;
 *   2. per market it mints complete sets by crossing its own BUY of outcome 0 at the fair price with a
 *      BUY of outcome 1 at 1 − fair (the opening print of the tape);
 *   3. without simulated participants (`--no-sim`) it quotes five levels each side: bids as BUY outcome 0
 *      and SELL outcome 1, asks as SELL outcome 0 and BUY outcome 1, so every order kind rests somewhere.
 *      With participants on, their market makers provide the resting liquidity instead.
 * A data directory that was seeded once, or that already has markets, is left alone.
 */
export async function seedDemoMarkets(ctx: SeedDeps): Promise<void> {
  const repo = new MarketRepo(ctx.db);
  if (repo.getSetting(DEMO_SEEDED_KEY) !== undefined || ctx.markets.list().length > 0) return;

  let key = repo.getSetting(DEMO_MAKER_KEY) as `0x${string}` | undefined;
  if (!key) {
    const k = newPrivateKey(ctx.ids ? (n) => ctx.ids!.bytes('demo-maker', n) : randomBytes);
    key = k;
    await ctx.writes.commit(() => repo.setSetting(DEMO_MAKER_KEY, k));
  }
  const signer = new DemoSigner(ctx, key);
  const address = signer.address.toLowerCase();
  await ctx.orders.creditCollateral(address, MAKER_COLLATERAL, 'demo market maker');

  const now = ctx.clock.nowMs();
  const markets: Array<{ spec: DemoMarket; market: Market }> = [];
  for (const spec of DEMO_MARKETS) {
    const end = new Date(now + spec.endInDays * 86_400_000);
    const market = await ctx.markets.create({
      question: spec.question(end),
      description: spec.description(end),
      ...(spec.outcomes ? { outcomes: spec.outcomes } : {}),
      tickSize: spec.tickSize,
      minOrderSize: 5n * ONE,
      negRisk: spec.negRisk ?? false,
      endDate: end.toISOString(),
    }, { waitForChain: false });
    markets.push({ spec, market });
  }

  // Phase 1: mint. Each pair is placed in call order within one turn (one group commit).
  const mints: PostOrderBody[] = [];
  for (const { spec, market } of markets) {
    mints.push(signer.order(market, 0, 'BUY', spec.fair, MINT_SHARES));
    mints.push(signer.order(market, 1, 'BUY', ONE - spec.fair, MINT_SHARES));
  }
  await placeAll(ctx, address, mints);

  // Phase 2 (only without participants): a static ladder around the fair price, alternating the order
  // kind per level. With participants on, the resting liquidity is their market makers', which re-quote
  // around a fair value that moves; a frozen ladder would pin the price (issue 21).
  const quotes: PostOrderBody[] = [];
  if (ctx.config.simulation) return finish(ctx, repo, now);
  for (const { spec, market } of markets) {
    LEVEL_SHARES.forEach((size, i) => {
      const k = BigInt(i + 1);
      const bid = spec.fair - k * spec.tickSize;
      const ask = spec.fair + k * spec.tickSize;
      if (bid >= spec.tickSize) quotes.push(i % 2 === 0 ? signer.order(market, 0, 'BUY', bid, size) : signer.order(market, 1, 'SELL', ONE - bid, size));
      if (ask <= ONE - spec.tickSize) quotes.push(i % 2 === 0 ? signer.order(market, 0, 'SELL', ask, size) : signer.order(market, 1, 'BUY', ONE - ask, size));
    });
  }
  await placeAll(ctx, address, quotes);
  await finish(ctx, repo, now);
}

async function finish(ctx: Pick<SeedDeps, 'writes'>, repo: MarketRepo, now: number): Promise<void> {
  await ctx.writes.commit(() => repo.setSetting(DEMO_SEEDED_KEY, new Date(now).toISOString()));
}

/** `random`: a fast or stepped run's seeded bytes (decisions §11), else the system's. */
function newPrivateKey(random: (n: number) => Buffer): `0x${string}` {
  for (;;) {
    const k = random(32);
    if (secp256k1.privateKeyVerify(k)) return `0x${k.toString('hex')}`;
  }
}

function day(d: Date): string {
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Places bodies in order, their synchronous parts back to back (so they share one group commit). */
async function placeAll(ctx: SeedDeps, address: string, bodies: PostOrderBody[]): Promise<void> {
  const results = await Promise.all(bodies.map((b) => ctx.orders.place({ address }, b)));
  results.forEach((r, i) => {
    if (!r.success) throw new Error(`demo seeding: order ${i} was refused: ${r.error_code ?? ''} ${r.error_msg}`);
  });
}

/**
 * Signs the maker's orders: the EIP-712 digest of protocol/eip712.ts's Order type (the same digest the
 * verifier checks), signed with the native secp256k1 binding. viem's signTypedData gives the same
 * signature (the seeding test checks it with viem's recoverTypedDataAddress) but costs ~10 ms per order,
 * which would make a cold start of ~50 orders noticeably slower.
 */
export class DemoSigner {
  private readonly key: Uint8Array;
  readonly address: Address;

  constructor(
    private readonly ctx: Pick<Infra, 'config' | 'chain' | 'ids'>,
    privateKey: `0x${string}`,
  ) {
    this.key = hexToBytes(privateKey);
    // The native binding derives the public key in microseconds; viem's first use costs ~300 ms.
    this.address = publicKeyToAddress(bytesToHex(secp256k1.publicKeyCreate(this.key, false)));
  }

  /** A signed GTC order for `size` shares (participants pass a seeded `salt` so their orders replay exactly) of outcome `outcomeIndex` at `price` (micro-units); `expiration` (unix seconds) for a GTD order. */
  order(market: Market, outcomeIndex: 0 | 1, side: Side, price: bigint, size: bigint, salt?: string, feeRateBps = market.feeRateBps, expiration = '0'): PostOrderBody {
    const cost = (price * size) / ONE;
    const struct: OrderStruct = {
      salt: salt ?? BigInt('0x' + (this.ctx.ids?.bytes('demo-salt', 6) ?? randomBytes(6)).toString('hex')).toString(),
      maker: this.address,
      signer: this.address,
      taker: ZERO_ADDRESS,
      tokenId: market.tokenIds[outcomeIndex],
      makerAmount: (side === 'BUY' ? cost : size).toString(),
      takerAmount: (side === 'BUY' ? size : cost).toString(),
      expiration,
      nonce: '0',
      feeRateBps: String(feeRateBps),
      side,
      signatureType: 0,
    };
    const digest = orderDigest(struct, { chainId: this.ctx.config.chainId, verifyingContract: orderVerifyingContract(this.ctx.chain.contracts, market.negRisk) });
    const { signature, recid } = secp256k1.ecdsaSign(digest, this.key);
    const sig = `${bytesToHex(signature)}${(27 + recid).toString(16)}` as `0x${string}`;
    return {
      owner: this.address,
      orderType: 'GTC',
      order: { ...struct, signature: sig, conditionId: market.conditionId, referrer: ZERO_ADDRESS },
    };
  }
}
