import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createEngine, type Engine } from '../engine.js';
import { ONE, parseUnits } from '../protocol/amounts.js';
import { NO_FEE } from '../protocol/feeSchedule.js';
import { DemoSigner } from '../services/markets/seedDemoMarkets.js';
import type { Market } from '../services/markets/marketService.js';
import type { PublicMarketIdentity } from '../services/mirror/mirrorTypes.js';
import { identityFromClob } from '../services/mirror/upstream/publicIdentity.js';

/**
 * "The public exchange" of the mirror tests (issue 22): a second engine of this project in the polymarket
 * profile, listening on a real port, with the demo markets and (by default) simulated participants
 * trading them. It speaks the public REST (`/markets/{cid}`, `/book`, `/fee-rate`) and the market
 * channel (`/ws/market`), so the mirror under test talks to it exactly as to the public service.
 * Tests place, cancel and trade on its markets through its own order service, resolve them, and kill
 * and restart it on the same port (same data directory) to exercise reconnects.
 */
export interface UpstreamKitOptions {
  /** Simulated participants on the demo markets (default true). */
  readonly simulation?: boolean;
}

export class UpstreamKit {
  private engine: Engine | undefined;
  private port = 0;
  /** Base of the public REST (what `--upstream-clob` points at). */
  base = '';
  /** The market channel (what `--upstream-ws` points at). */
  wsUrl = '';
  private readonly traders: DemoSigner[] = [];

  private constructor(
    private readonly dataDir: string,
    private readonly opts: UpstreamKitOptions,
  ) {}

  static async start(opts: UpstreamKitOptions = {}): Promise<UpstreamKit> {
    const kit = new UpstreamKit(mkdtempSync(join(tmpdir(), 'upstream-')), opts);
    await kit.boot();
    return kit;
  }

  /** The engine's markets (the demo set). */
  markets(): readonly Market[] {
    return this.live().ctx.markets.list();
  }

  /** The first demo market (a binary market on a 0.01 tick), or the one with this condition id. */
  market(conditionId?: string): Market {
    const all = this.markets();
    const m = conditionId ? all.find((x) => x.conditionId === conditionId) : all.find((x) => !x.negRisk && x.tickSize === 10_000n);
    if (!m) throw new Error(`upstream kit: no market ${conditionId ?? 'on a 0.01 tick'}`);
    return m;
  }

  /** The market's public identity, built from the engine's own GET /markets/{cid} answer. */
  async identity(conditionId = this.market().conditionId): Promise<PublicMarketIdentity> {
    const res = await fetch(`${this.base}/markets/${conditionId}`);
    const built = identityFromClob(await res.json(), NO_FEE);
    if ('problem' in built) throw new Error(built.problem);
    return built;
  }

  /**
   * Rests (or takes with) a GTC order of a fresh funded trader: `outcome` 0 or 1, BUY only (a BUY needs
   * collateral alone; a SELL of outcome 0 at p is a BUY of outcome 1 at 1 − p on the one book).
   */
  async buy(conditionId: string, outcome: 0 | 1, price: string, shares: string, trader = 0): Promise<{ orderId: string; status: string }> {
    const e = this.live();
    const m = this.market(conditionId);
    const signer = await this.trader(trader);
    const body = signer.order(m, outcome, 'BUY', units(price), units(shares));
    const r = await e.ctx.orders.place({ address: signer.address.toLowerCase() }, body);
    if (!r.success) throw new Error(`upstream kit: order refused: ${r.error_code ?? ''} ${r.error_msg}`);
    return { orderId: r.order_id ?? '', status: r.status };
  }

  async cancel(orderId: string, trader = 0): Promise<void> {
    const signer = await this.trader(trader);
    await this.live().ctx.orders.cancel({ address: signer.address.toLowerCase() }, [orderId]);
  }

  /**
   * One public trade of `shares` at outcome-0 price `price`: trader 1 rests a BUY of outcome 0, trader 2
   * takes it with a BUY of outcome 1 at 1 − price (a mint). The market channel then prints it per token.
   */
  async trade(conditionId: string, price: string, shares: string): Promise<void> {
    await this.buy(conditionId, 0, price, shares, 1);
    await this.buy(conditionId, 1, decimal(ONE - units(price)), shares, 2);
  }

  async resolve(conditionId: string, winner: 0 | 1): Promise<void> {
    await this.live().ctx.markets.resolve(conditionId, winner);
  }

  /** Stops the simulated participants (their resting orders stay): the book then moves only when a test moves it. */
  stopParticipants(): void {
    this.live().ctx.sim.stop();
  }

  /** Stops the engine (listener, participants, sockets): the mirror sees its upstream die. */
  async kill(): Promise<void> {
    const e = this.engine;
    this.engine = undefined;
    await e?.close();
  }

  /** Starts the engine again on the same port and data directory. */
  async restart(): Promise<void> {
    if (this.engine) await this.kill();
    await this.boot();
  }

  async close(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async boot(): Promise<void> {
    const engine = await createEngine({
      dataDir: this.dataDir,
      chain: 'none',
      profile: 'polymarket',
      port: this.port,
      seedDemo: true,
      simulation: this.opts.simulation ?? true,
      rateLimits: false,
      serveRenderer: false,
      rotateOperatorToken: false,
    });
    const ready = await engine.listen();
    this.engine = engine;
    this.port = Number(new URL(ready.trading).port);
    this.base = ready.trading;
    this.wsUrl = `${ready.ws}/market`;
    // Traders' keys live in memory: after a restart they are the same accounts, with their balances.
  }

  private async trader(i: number): Promise<DemoSigner> {
    while (this.traders.length <= i) {
      const s = new DemoSigner(this.live().ctx, `0x${randomBytes(32).toString('hex')}`);
      this.traders.push(s);
      await this.live().ctx.orders.creditCollateral(s.address.toLowerCase(), 1_000_000n * ONE, 'upstream kit trader');
    }
    return this.traders[i]!;
  }

  private live(): Engine {
    if (!this.engine) throw new Error('upstream kit: the engine is stopped (restart() it first)');
    return this.engine;
  }
}

function units(text: string): bigint {
  const v = parseUnits(text);
  if (v === undefined) throw new Error(`upstream kit: not a decimal: ${text}`);
  return v;
}

function decimal(micro: bigint): string {
  const s = micro.toString().padStart(7, '0');
  return `${s.slice(0, -6)}.${s.slice(-6)}`.replace(/\.?0+$/, '');
}
