import { createHash } from 'node:crypto';
import { createSeededRandom, type SeededRandom } from '../../book/seededRandom.js';
import { ONE } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { MarketRepo } from '../../store/marketRepo.js';
import { ManualClock } from '../clock.js';
import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';
import type { Market, MarketService } from '../markets/marketService.js';
import { DEMO_SEEDED_KEY, DemoSigner } from '../markets/seedDemoMarkets.js';
import { informed, learnFromFlow, marketMaker, noise, onTick, whale, type Intent, type MarketMakerKnobs, type MarketView, type WhaleKnobs } from './agents.js';
import { defaultPreset, demoPresetFor, type MarketPreset, type ParticipantSpec } from './presets.js';
import { SimScheduler } from './simScheduler.js';

/** Participant orders per second of clock time across all markets; beyond it an action is skipped, never queued. */
export const MAX_SIM_ORDERS_PER_SECOND = 40;

interface Participant {
  readonly spec: ParticipantSpec;
  readonly conditionId: string;
  readonly address: string;
  readonly signer: DemoSigner;
  readonly rng: SeededRandom;
  enabled: boolean;
  /** Bumped when the participant is reconfigured or stopped: older scheduled actions then do nothing. */
  gen: number;
  resting: number;
  orders: number;
  /** Orders signed, for unique salts within one clock millisecond. */
  salts: number;
  /** A market maker's inventory right after its last quotes went out (what changes later was taken by others). */
  quotedInventory?: number;
}

interface MarketSim {
  readonly conditionId: string;
  enabled: boolean;
  seed: number;
  /** Public fair-value anchor the market makers quote around (micro-units, Yes). */
  fair: number;
  /** LABELLED hidden state: the true probability only informed traders see (micro-units, Yes). */
  truth: number;
  truthVolTicks: number;
  participants: Participant[];
  readonly rng: SeededRandom;
}

export interface ParticipantInfo {
  name: string;
  role: ParticipantSpec['role'];
  address: string;
  conditionId: string;
  enabled: boolean;
  intensity: number;
  latencyMs: number;
  knobs: ParticipantSpec['knobs'];
  orders: number;
}

export interface MarketSimInfo {
  conditionId: string;
  enabled: boolean;
  seed: number;
  fair: string;
  participants: ParticipantInfo[];
}

export interface ParticipantPatch {
  enabled?: boolean;
  intensity?: number;
  latencyMs?: number;
  knobs?: Record<string, unknown>;
}

/** What the simulated participants use: markets (read), the order service (place, cancel, credit, read) and the infrastructure their signer needs. */
export type SimulationDeps = Pick<Infra, 'chain' | 'clock' | 'config' | 'db'> & {
  readonly markets: Pick<MarketService, 'byCondition' | 'list' | 'pauseState'>;
  readonly orders: Pick<OrderService, 'balanceOf' | 'book' | 'cancelMarket' | 'creditCollateral' | 'get' | 'lastTrade' | 'place'>;
};

/**
 * Simulated participants (decisions §9): ordinary accounts (deterministic keys from the seed, collateral
 * through the faucet path, signed orders placed through OrderService.place like any user's) driven by a
 * seeded scheduler on the engine clock. Nothing here reads Math.random or Date.now.
 */
export class SimulationService {
  private readonly markets = new Map<string, MarketSim>();
  private readonly byAddress = new Map<string, Participant>();
  readonly scheduler: SimScheduler;
  private bucket = { tokens: MAX_SIM_ORDERS_PER_SECOND, at: 0 };
  /** Participant actions that threw, and the last message (GET /admin/sim). */
  failures = 0;
  lastFailure: string | null = null;

  constructor(private readonly ctx: SimulationDeps) {
    this.scheduler = new SimScheduler(ctx.clock, ctx.clock instanceof ManualClock ? ctx.clock : undefined);
  }

  /** Turns the demo markets' participants on when simulation is on and this data directory was demo-seeded. */
  async init(): Promise<void> {
    this.bucket.at = this.ctx.clock.nowMs();
    if (this.ctx.config.simulation && new MarketRepo(this.ctx.db).getSetting(DEMO_SEEDED_KEY) !== undefined) {
      for (const m of this.ctx.markets.list()) {
        const preset = m.winner === null ? demoPresetFor(m.question) : undefined;
        if (preset) await this.enableMarket(m.conditionId, preset);
      }
    }
    this.scheduler.start();
  }

  stop(): void {
    this.scheduler.stop();
  }

  /** Fast mode (engine on a ManualClock): runs the simulation for `ms` of clock time without waiting. */
  runFor(ms: number): Promise<void> {
    return this.scheduler.runUntil(this.ctx.clock.nowMs() + ms);
  }

  isSimulated(address: string): boolean {
    return this.byAddress.has(address.toLowerCase());
  }

  list(): MarketSimInfo[] {
    return [...this.markets.values()].map((s) => this.info(s));
  }

  /** One market's simulation (400 when the market has none). */
  marketInfo(conditionId: string): MarketSimInfo {
    return this.info(this.requireSim(conditionId));
  }

  participants(): ParticipantInfo[] {
    return [...this.markets.values()].flatMap((s) => s.participants.map((p) => this.participantInfo(p)));
  }

  /** Starts (or restarts) a market's participants; the preset defaults to the demo preset or the calm default. */
  async enableMarket(conditionId: string, preset?: MarketPreset): Promise<MarketSimInfo> {
    const market = this.requireMarket(conditionId);
    const existing = this.markets.get(market.conditionId);
    if (existing && !preset) {
      if (existing.enabled) return this.info(existing);
      existing.enabled = true;
      for (const p of existing.participants) this.schedule(existing, p);
      return this.info(existing);
    }
    if (existing) await this.disableMarket(market.conditionId);
    const chosen = preset ?? demoPresetFor(market.question) ?? defaultPreset(1000 + this.indexOf(market.conditionId));
    const fair = this.startingFair(market);
    const sim: MarketSim = {
      conditionId: market.conditionId,
      enabled: true,
      seed: chosen.seed,
      fair,
      truth: fair,
      truthVolTicks: chosen.truthVolTicks,
      participants: [],
      rng: createSeededRandom(mix(chosen.seed, 'market')),
    };
    this.markets.set(market.conditionId, sim);
    for (const spec of chosen.participants) await this.addParticipant(sim, spec);
    return this.info(sim);
  }

  /** Stops a market's participants and cancels their resting orders. */
  async disableMarket(conditionId: string): Promise<MarketSimInfo> {
    const sim = this.requireSim(conditionId);
    sim.enabled = false;
    for (const p of sim.participants) {
      p.gen++;
      await this.ctx.orders.cancelMarket({ address: p.address }, { market: sim.conditionId });
      p.resting = 0;
    }
    return this.info(sim);
  }

  /** Changes one participant (by name) or every participant of a role: on/off, intensity, latency, knobs. */
  async configure(conditionId: string, who: string, patch: ParticipantPatch): Promise<MarketSimInfo> {
    const sim = this.requireSim(conditionId);
    const targets = sim.participants.filter((p) => p.spec.name === who || p.spec.role === who);
    if (targets.length === 0) {
      throw new ApiError('invalid_field', `No participant named or of role '${who}' in market ${sim.conditionId}; see GET /admin/sim for the names.`, { details: { field: 'participant' } });
    }
    for (const p of targets) {
      if (patch.intensity !== undefined) (p.spec as { intensity: number }).intensity = positive(patch.intensity, 'intensity');
      if (patch.latencyMs !== undefined) (p.spec as { latencyMs: number }).latencyMs = nonNegative(patch.latencyMs, 'latencyMs');
      if (patch.knobs !== undefined) Object.assign(p.spec.knobs, checkedKnobs(p.spec.knobs as unknown as Record<string, unknown>, patch.knobs));
      if (patch.enabled !== undefined) p.enabled = patch.enabled;
      p.gen++;
      if (patch.enabled === false) {
        // A participant that steps away takes its quotes with it.
        await this.ctx.orders.cancelMarket({ address: p.address }, { market: sim.conditionId });
        p.resting = 0;
      }
      if (p.enabled && sim.enabled) this.schedule(sim, p);
    }
    return this.info(sim);
  }

  /** A price shock: moves the public fair value and (by default) the hidden truth to `fair` (micro-units of Yes). */
  shock(conditionId: string, fair: number, opts: { truth?: number } = {}): void {
    const sim = this.requireSim(conditionId);
    const tick = Number(this.requireMarket(conditionId).tickSize);
    sim.fair = onTick(fair, tick);
    sim.truth = opts.truth ?? sim.fair;
  }

  /** LABELLED: moves only the hidden true probability (the informed traders will drag the price there). */
  setTruth(conditionId: string, truth: number): void {
    this.requireSim(conditionId).truth = truth;
  }

  /** A whale works `size` shares over time in slices of `slice`, one every `intervalSeconds`, never beyond `limit`. */
  async addWhale(conditionId: string, w: { side: 'BUY' | 'SELL'; size: number; slice: number; limit: number; intervalSeconds: number }): Promise<void> {
    const sim = this.requireSim(conditionId);
    const n = sim.participants.filter((p) => p.spec.role === 'whale').length + 1;
    const knobs: WhaleKnobs = { side: w.side, remaining: w.size, slice: w.slice, limit: w.limit };
    await this.addParticipant(sim, { name: `whale-${n}`, role: 'whale', intensity: 60 / w.intervalSeconds, latencyMs: 0, grant: Math.ceil(w.size * 1.1) + 100, knobs });
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────

  private async addParticipant(sim: MarketSim, spec: ParticipantSpec): Promise<void> {
    // Keys follow the seed, the market's place in the market list and the name: not the condition id,
    // which depends on the data directory's operator key, so a replay on a fresh directory gets the same wallets.
    const key = keyOf(`sim:${sim.seed}:${this.indexOf(sim.conditionId)}:${spec.name}`);
    const signer = new DemoSigner(this.ctx, key);
    const address = signer.address.toLowerCase();
    const p: Participant = {
      spec: { ...spec, knobs: { ...spec.knobs } },
      conditionId: sim.conditionId,
      address,
      signer,
      rng: createSeededRandom(mix(sim.seed, spec.name)),
      enabled: true,
      gen: 0,
      resting: 0,
      orders: 0,
      salts: 0,
    };
    const grant = BigInt(spec.grant) * ONE;
    const held = this.ctx.orders.balanceOf(address, COLLATERAL).balance;
    if (held < grant) await this.ctx.orders.creditCollateral(address, grant - held, 'faucet');
    sim.participants.push(p);
    this.byAddress.set(address, p);
    this.schedule(sim, p);
  }

  private schedule(sim: MarketSim, p: Participant): void {
    const gen = p.gen;
    const meanMs = 60_000 / Math.max(p.spec.intensity, 1e-6);
    const wait = Math.round(-Math.log(1 - p.rng.next()) * meanMs) + p.spec.latencyMs;
    this.scheduler.at(this.ctx.clock.nowMs() + wait, async () => {
      if (gen !== p.gen || !p.enabled || !sim.enabled) return;
      try {
        await this.act(sim, p);
      } catch (e) {
        // A refused or failed action (a breaker engaged mid-turn, the engine closing) is the participant's
        // problem, never the engine's: count it and carry on.
        this.failures++;
        this.lastFailure = (e as Error).message;
      } finally {
        if (gen === p.gen && p.enabled && sim.enabled && (p.spec.role !== 'whale' || (p.spec.knobs as WhaleKnobs).remaining > 0)) this.schedule(sim, p);
      }
    });
  }

  private async act(sim: MarketSim, p: Participant): Promise<void> {
    const market = this.ctx.markets.byCondition(sim.conditionId);
    if (!market || market.winner !== null || this.ctx.markets.pauseState(market.conditionId) !== null) return;
    const book = this.ctx.orders.book(market.conditionId);
    const tick = Number(market.tickSize);
    const last = this.ctx.orders.lastTrade(market.tokenIds[0])?.price;
    const yes = this.ctx.orders.balanceOf(p.address, market.tokenIds[0]).balance;
    const no = this.ctx.orders.balanceOf(p.address, market.tokenIds[1]).balance;
    const view: MarketView = {
      tick,
      minSize: Number(market.minOrderSize),
      bestBid: book?.bestBid(),
      bestAsk: book?.bestAsk(),
      lastTrade: last === undefined ? undefined : Number(last),
      fair: sim.fair,
      inventory: Number(yes - no),
    };
    let intents: Intent[];
    switch (p.spec.role) {
      case 'marketMaker': {
        const k = p.spec.knobs as MarketMakerKnobs;
        if (p.quotedInventory !== undefined) sim.fair = learnFromFlow(k, sim.fair, view.inventory - p.quotedInventory, tick);
        view.fair = sim.fair;
        await this.ctx.orders.cancelMarket({ address: p.address }, { market: market.conditionId });
        p.resting = 0;
        intents = marketMaker(k, view);
        break;
      }
      case 'noise':
        if (p.resting >= 4) {
          await this.ctx.orders.cancelMarket({ address: p.address }, { market: market.conditionId });
          p.resting = 0;
        }
        intents = noise(p.spec.knobs as Parameters<typeof noise>[0], view, p.rng);
        break;
      case 'informed': {
        // The hidden path takes one random step per informed action (a seeded random walk).
        const step = (p.rng.next() + p.rng.next() - 1) * 2 * sim.truthVolTicks * tick;
        sim.truth = Math.min(ONE_NUM - tick, Math.max(tick, Math.round(sim.truth + step)));
        intents = informed(p.spec.knobs as Parameters<typeof informed>[0], view, sim.truth);
        break;
      }
      case 'whale':
        intents = whale(p.spec.knobs as WhaleKnobs, view);
        break;
    }
    if (intents.length === 0 || !this.take(intents.length)) return;
    const bodies = intents.map((i) => this.sign(market, p, i, yes, no));
    const results = await Promise.all(bodies.map((b) => this.ctx.orders.place({ address: p.address }, b)));
    p.orders += results.length;
    if (p.spec.role === 'marketMaker') p.quotedInventory = Number(this.ctx.orders.balanceOf(p.address, market.tokenIds[0]).balance - this.ctx.orders.balanceOf(p.address, market.tokenIds[1]).balance);
    results.forEach((r, i) => {
      if (!r.success) return;
      if (intents[i]!.type === 'GTC' && r.status !== 'unmatched') p.resting++;
      if (p.spec.role === 'whale' && r.order_id) {
        const k = p.spec.knobs as WhaleKnobs;
        const matched = Number(this.ctx.orders.get(r.order_id).sizeMatched);
        k.remaining = Math.max(0, k.remaining - matched);
      }
    });
  }

  /** The bounded rate: a token bucket on clock time shared by every participant. */
  private take(n: number): boolean {
    const now = this.ctx.clock.nowMs();
    const b = this.bucket;
    b.tokens = Math.min(MAX_SIM_ORDERS_PER_SECOND, b.tokens + ((now - b.at) / 1000) * MAX_SIM_ORDERS_PER_SECOND);
    b.at = now;
    if (b.tokens < n) return false;
    b.tokens -= n;
    return true;
  }

  /** A Yes-terms intent as a signed order: sells shares it holds, otherwise buys the complementary token. */
  private sign(market: Market, p: Participant, i: Intent, yes: bigint, no: bigint) {
    const price = BigInt(i.price);
    const size = BigInt(i.size);
    const salt = (BigInt(this.ctx.clock.nowMs()) * 1_000_000n + BigInt(p.salts++ % 1_000_000)).toString();
    let body;
    if (i.side === 'BUY') body = no >= size ? p.signer.order(market, 1, 'SELL', ONE - price, size, salt) : p.signer.order(market, 0, 'BUY', price, size, salt);
    else body = yes >= size ? p.signer.order(market, 0, 'SELL', price, size, salt) : p.signer.order(market, 1, 'BUY', ONE - price, size, salt);
    return { ...body, orderType: i.type };
  }

  private startingFair(market: Market): number {
    const book = this.ctx.orders.book(market.conditionId);
    const bid = book?.bestBid();
    const ask = book?.bestAsk();
    const last = this.ctx.orders.lastTrade(market.tokenIds[0])?.price;
    const tick = Number(market.tickSize);
    if (bid !== undefined && ask !== undefined) return onTick((bid + ask) / 2, tick);
    if (last !== undefined) return onTick(Number(last), tick);
    return onTick(ONE_NUM / 2, tick);
  }

  private indexOf(conditionId: string): number {
    return this.ctx.markets.list().findIndex((m) => m.conditionId === conditionId);
  }

  private requireMarket(conditionId: string): Market {
    const m = this.ctx.markets.byCondition(conditionId);
    if (!m) throw new ApiError('market_not_found', `No market has condition id ${String(conditionId).slice(0, 80)}. List markets with GET /markets.`);
    return m;
  }

  private requireSim(conditionId: string): MarketSim {
    const m = this.requireMarket(conditionId);
    const sim = this.markets.get(m.conditionId);
    if (!sim) throw new ApiError('invalid_field', `Market ${m.conditionId} has no simulated participants; turn them on with PUT /admin/sim/markets/${m.conditionId} {"enabled":true}.`, { details: { field: 'conditionId' } });
    return sim;
  }

  private info(s: MarketSim): MarketSimInfo {
    return { conditionId: s.conditionId, enabled: s.enabled, seed: s.seed, fair: (s.fair / 1e6).toFixed(6), participants: s.participants.map((p) => this.participantInfo(p)) };
  }

  private participantInfo(p: Participant): ParticipantInfo {
    return {
      name: p.spec.name,
      role: p.spec.role,
      address: p.address,
      conditionId: p.conditionId,
      enabled: p.enabled,
      intensity: p.spec.intensity,
      latencyMs: p.spec.latencyMs,
      knobs: { ...p.spec.knobs },
      orders: p.orders,
    };
  }
}

const ONE_NUM = 1_000_000;

/** A 32-bit seed from a seed and a label (so every participant has its own stream). */
function mix(seed: number, label: string): number {
  return createHash('sha256').update(`${seed}:${label}`).digest().readUInt32BE(0);
}

/** A deterministic secp256k1 private key from a label (hash until it is a valid key; the first one nearly always is). */
function keyOf(label: string): `0x${string}` {
  let h = createHash('sha256').update(label).digest();
  while (h[0] === 0xff) h = createHash('sha256').update(h).digest();
  return `0x${h.toString('hex')}`;
}

function positive(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ApiError('invalid_field', `${field} must be a positive number; got ${JSON.stringify(v)}.`, { details: { field } });
  return v;
}

function nonNegative(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ApiError('invalid_field', `${field} must be a number ≥ 0; got ${JSON.stringify(v)}.`, { details: { field } });
  return v;
}

/** Knob changes keep each knob's JSON type: numbers stay non-negative numbers, sides stay BUY/SELL. */
function checkedKnobs(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(patch)) {
    if (!(k in current)) throw new ApiError('invalid_field', `knobs.${k} is not a knob of this participant; it has ${Object.keys(current).join(', ')}.`, { details: { field: `knobs.${k}` } });
    if (typeof current[k] === 'number') nonNegative(v, `knobs.${k}`);
    else if (v !== 'BUY' && v !== 'SELL') throw new ApiError('invalid_field', `knobs.${k} must be "BUY" or "SELL".`, { details: { field: `knobs.${k}` } });
  }
  return patch;
}
