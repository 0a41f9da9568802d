import { createHash } from 'node:crypto';
import { createSeededRandom, type SeededRandom } from '../../book/seededRandom.js';
import { ONE, parseUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { MarketRepo } from '../../store/marketRepo.js';
import { TradeRepo } from '../../store/tradeRepo.js';
import { ManualClock } from '../clock.js';
import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';
import type { Market, MarketService } from '../markets/marketService.js';
import { DEMO_MAKER_KEY, DEMO_SEEDED_KEY, DemoSigner } from '../markets/seedDemoMarkets.js';
import { informed, learnFromTrades, marketMaker, newsJump, noise, onTick, whale, type Flow, type Intent, type MarketMakerKnobs, type MarketView, type NewsKnobs, type WhaleKnobs } from './agents.js';
import { checkedKnobs, checkedIntensity, checkedLatency } from './knobRanges.js';
import { defaultPreset, demoPresetFor, marketSeed, type MarketPreset, type ParticipantSpec } from './presets.js';
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
  /** Orders the exchange refused (balance, tick, pause…): counted, never silently dropped. */
  refused: number;
  /** Faucet top-ups after its free collateral fell below a quarter of its grant. */
  topUps: number;
  /** A market maker's last quotes (prices and sides) and its inventory then: unchanged quotes are not re-sent. */
  quoteKey?: string;
  /** Orders signed, for unique salts within one clock millisecond. */
  salts: number;
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
  /** Clock time the hidden truth last took its random step. */
  truthAt: number;
  participants: Participant[];
  readonly rng: SeededRandom;
  /** Clock time (ms) of the newest trade the fair value has learnt from, and the ids of that millisecond's trades. */
  learnedAt: number;
  learnedIds: Set<string>;
  /** Recent flow, exponentially weighted: net signed shares and total shares (toxicity = |net| / total). */
  flowNet: number;
  flowTotal: number;
  redeemed: boolean;
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
  refused: number;
  topUps: number;
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
  readonly orders: Pick<OrderService, 'balanceOf' | 'book' | 'cancel' | 'cancelMarket' | 'creditCollateral' | 'get' | 'lastTrade' | 'listOpen' | 'place' | 'redeem'>;
};

/**
 * Simulated participants (decisions §9): ordinary accounts (deterministic keys from the seed, collateral
 * through the faucet path, signed orders placed through OrderService.place like any user's) driven by a
 * seeded scheduler on the engine clock. Nothing here reads Math.random or Date.now.
 */
export class SimulationService {
  private readonly markets = new Map<string, MarketSim>();
  private readonly byAddress = new Map<string, Participant>();
  private readonly trades: TradeRepo;
  readonly scheduler: SimScheduler;
  private bucket = { tokens: MAX_SIM_ORDERS_PER_SECOND, at: 0 };
  /** Participant actions that threw or orders the exchange refused, and the last message (GET /admin/sim). */
  failures = 0;
  /** Of the failures, orders refused by the exchange. */
  refused = 0;
  /** Faucet top-ups of participants that ran low. */
  topUps = 0;
  lastFailure: string | null = null;
  /** The run seed (`--seed`, a scenario's `seed`, the operator API); undefined keeps each preset's own. */
  private runSeed: number | undefined;

  constructor(private readonly ctx: SimulationDeps) {
    this.scheduler = new SimScheduler(ctx.clock, ctx.clock instanceof ManualClock ? ctx.clock : undefined);
    this.runSeed = ctx.config.seed;
    this.trades = new TradeRepo(ctx.db);
  }

  get seed(): number | undefined {
    return this.runSeed;
  }

  /**
   * Turns the demo markets' participants on when simulation is on and this data directory was
   * demo-seeded. The demo maker's static seed ladder is withdrawn first: the resting liquidity is the
   * participants' market makers', which re-quote.
   */
  async init(): Promise<void> {
    this.bucket.at = this.ctx.clock.nowMs();
    const repo = new MarketRepo(this.ctx.db);
    if (this.ctx.config.simulation && repo.getSetting(DEMO_SEEDED_KEY) !== undefined) {
      const demoKey = repo.getSetting(DEMO_MAKER_KEY) as `0x${string}` | undefined;
      const demoMaker = demoKey ? new DemoSigner(this.ctx, demoKey).address.toLowerCase() : undefined;
      for (const m of this.ctx.markets.list()) {
        const preset = m.winner === null ? demoPresetFor(m.question, this.runSeed) : undefined;
        if (!preset) continue;
        if (demoMaker) await this.ctx.orders.cancelMarket({ address: demoMaker }, { market: m.conditionId });
        await this.enableMarket(m.conditionId, preset);
      }
    }
    this.scheduler.start();
  }

  /**
   * Reseeds every participant: each simulated market restarts on its preset with seeds (random streams
   * and wallets) derived from `seed`, so the same seed replays the same tape.
   */
  async reseed(seed: number): Promise<void> {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new ApiError('invalid_field', `seed must be an integer ≥ 0; got ${JSON.stringify(seed)}.`, { details: { field: 'seed' } });
    this.runSeed = seed;
    for (const sim of [...this.markets.values()]) {
      const market = this.requireMarket(sim.conditionId);
      await this.enableMarket(sim.conditionId, this.presetOf(market));
    }
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
    if (market.mirrorSource !== null) {
      // A mirrored market's counterparties are the public depth; invented traders would fake its prices.
      throw new ApiError('invalid_field', `Market ${market.conditionId} mirrors a public market (${market.mirrorSource}); simulated participants trade local markets only.`, { details: { field: 'conditionId' } });
    }
    const existing = this.markets.get(market.conditionId);
    if (existing && !preset) {
      if (existing.enabled) return this.info(existing);
      existing.enabled = true;
      for (const p of existing.participants) this.schedule(existing, p);
      return this.info(existing);
    }
    if (existing) await this.disableMarket(market.conditionId);
    const chosen = preset ?? this.presetOf(market);
    const fair = this.startingFair(market);
    const sim: MarketSim = {
      conditionId: market.conditionId,
      enabled: true,
      seed: chosen.seed,
      fair,
      truth: fair,
      truthVolTicks: chosen.truthVolTicks,
      truthAt: this.ctx.clock.nowMs(),
      participants: [],
      rng: createSeededRandom(mix(chosen.seed, 'market')),
      learnedAt: this.ctx.clock.nowMs(),
      learnedIds: this.tradeIdsAt(market.conditionId, this.ctx.clock.nowMs()),
      flowNet: 0,
      flowTotal: 0,
      redeemed: false,
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
      if (patch.intensity !== undefined) (p.spec as { intensity: number }).intensity = checkedIntensity(patch.intensity, 'intensity');
      if (patch.latencyMs !== undefined) (p.spec as { latencyMs: number }).latencyMs = checkedLatency(patch.latencyMs, 'latencyMs');
      if (patch.knobs !== undefined) Object.assign(p.spec.knobs, checkedKnobs(p.spec.role, p.spec.knobs as unknown as Record<string, unknown>, patch.knobs));
      // A market maker coming back learns from what trades next, not from what happened while it was away.
      if (patch.enabled === true && !p.enabled && p.spec.role === 'marketMaker') this.forgetTrades(sim);
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
    // The shock is the new information: the trades before it no longer move the fair value.
    this.forgetTrades(sim);
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
    await this.addParticipant(sim, { name: `whale-${n}`, role: 'whale', intensity: checkedIntensity(60 / w.intervalSeconds, 'intervalSeconds'), latencyMs: 0, grant: Math.ceil(w.size * 1.1) + 100, knobs });
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
      refused: 0,
      topUps: 0,
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
    // At least a millisecond: simulated time always moves on between two actions of one participant.
    const wait = Math.max(1, Math.round(-Math.log(1 - p.rng.next()) * meanMs) + p.spec.latencyMs);
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
    if (!market) return;
    if (market.winner !== null) return this.redeemAll(sim, market);
    if (this.ctx.markets.pauseState(market.conditionId) !== null) return;
    const tick = Number(market.tickSize);
    if (p.spec.role === 'news') {
      // Episodic news: the public fair value and the hidden truth jump together.
      const jump = newsJump(p.spec.knobs as NewsKnobs, p.rng) * tick;
      this.learn(sim, market, tick);
      sim.fair = onTick(sim.fair + jump, tick);
      sim.truth = Math.min(ONE_NUM - tick, Math.max(tick, Math.round(sim.truth + jump)));
      return;
    }
    await this.topUp(p);
    const book = this.ctx.orders.book(market.conditionId);
    const last = this.ctx.orders.lastTrade(market.tokenIds[0])?.price;
    const yes = this.ctx.orders.balanceOf(p.address, market.tokenIds[0]);
    const no = this.ctx.orders.balanceOf(p.address, market.tokenIds[1]);
    const view: MarketView = {
      tick,
      minSize: Number(market.minOrderSize),
      bestBid: book?.bestBid(),
      bestAsk: book?.bestAsk(),
      lastTrade: last === undefined ? undefined : Number(last),
      fair: sim.fair,
      inventory: Number(yes.balance - no.balance),
    };
    let intents: Intent[];
    switch (p.spec.role) {
      case 'marketMaker': {
        const k = p.spec.knobs as MarketMakerKnobs;
        this.learn(sim, market, tick);
        view.fair = sim.fair;
        intents = marketMaker(k, view, sim.flowTotal > 0 ? Math.abs(sim.flowNet) / sim.flowTotal : 0);
        // Quotes that have not changed and were not hit keep their place in the queues.
        const key = `${view.inventory}|${intents.map((i) => `${i.side}${i.price}`).join(',')}`;
        if (key === p.quoteKey && p.resting > 0) return;
        p.quoteKey = key;
        intents = await this.requote(p, market, intents);
        break;
      }
      case 'noise':
        // Noise traders anchor to the same public value, learnt from the tape (also while no maker quotes).
        this.learn(sim, market, tick);
        view.fair = sim.fair;
        if (p.resting >= 4) {
          await this.ctx.orders.cancelMarket({ address: p.address }, { market: market.conditionId });
          p.resting = 0;
        }
        intents = noise(p.spec.knobs as Parameters<typeof noise>[0], view, p.rng);
        // A participant never trades with itself: its own resting orders that the new one would cross go first.
        if (p.resting > 0 && this.crossesOwn(p, market, intents)) {
          await this.ctx.orders.cancelMarket({ address: p.address }, { market: market.conditionId });
          p.resting = 0;
        }
        break;
      case 'informed': {
        // The hidden path is a seeded random walk in clock time: truthVolTicks ticks per √minute.
        const now = this.ctx.clock.nowMs();
        const minutes = Math.min(60, Math.max(0, now - sim.truthAt) / 60_000);
        sim.truthAt = now;
        const gauss = (p.rng.next() + p.rng.next() + p.rng.next() - 1.5) * 2;
        sim.truth = Math.min(ONE_NUM - tick, Math.max(tick, Math.round(sim.truth + gauss * sim.truthVolTicks * Math.sqrt(minutes) * tick)));
        intents = informed(p.spec.knobs as Parameters<typeof informed>[0], view, sim.truth);
        break;
      }
      case 'whale':
        intents = whale(p.spec.knobs as WhaleKnobs, view);
        break;
    }
    if (intents.length === 0) return;
    if (!this.take(intents.length)) {
      if (p.spec.role === 'marketMaker') p.quoteKey = undefined; // its missing levels go out next time
      return;
    }
    const held = { yes: yes.available, no: no.available };
    const bodies = intents.map((i) => this.sign(market, p, i, held));
    const results = await Promise.all(bodies.map((b) => this.ctx.orders.place({ address: p.address }, b)));
    p.orders += results.length;
    results.forEach((r, i) => {
      if (!r.success) {
        p.refused++;
        this.refused++;
        this.failures++;
        this.lastFailure = `${p.spec.name} (${market.conditionId.slice(0, 10)}…): ${r.error_msg}`;
        if (p.spec.role === 'marketMaker') p.quoteKey = undefined;
        return;
      }
      if (intents[i]!.type === 'GTC' && r.status !== 'unmatched') p.resting++;
      if (p.spec.role === 'whale' && r.order_id) {
        const k = p.spec.knobs as WhaleKnobs;
        const matched = Number(this.ctx.orders.get(r.order_id).sizeMatched);
        k.remaining = Math.max(0, k.remaining - matched);
      }
    });
    if (p.spec.role === 'marketMaker') {
      // Its own quotes may have traded on arrival: key on the inventory after them, so a later hit shows.
      const inv = Number(this.ctx.orders.balanceOf(p.address, market.tokenIds[0]).balance - this.ctx.orders.balanceOf(p.address, market.tokenIds[1]).balance);
      p.quoteKey = `${inv}|${p.quoteKey!.split('|')[1]}`;
    }
  }

  /** The market makers' view of the tape: every trade since the last look (users' included) moves the fair value and the flow's toxicity. */
  private learn(sim: MarketSim, market: Market, tick: number): void {
    // The trades since the last look, by match time (an indexed window, whatever the tape's length);
    // those of the last look's millisecond already counted are skipped by id.
    const now = this.ctx.clock.nowMs();
    const rows = this.trades.inWindow(market.conditionId, sim.learnedAt, now);
    const fresh: Flow[] = [];
    const seen = sim.learnedIds;
    let at = sim.learnedAt;
    let ids = new Set<string>();
    for (const t of rows) {
      if (seen.has(t.id)) continue;
      fresh.push({ dir: (t.takerOutcomeIndex === 0) === (t.takerSide === 'BUY') ? 1 : -1, size: Number(t.size) });
      if (t.matchTime > at) {
        at = t.matchTime;
        ids = new Set();
      }
      ids.add(t.id);
    }
    if (at > sim.learnedAt) {
      sim.learnedAt = at;
      sim.learnedIds = ids;
    } else for (const id of ids) seen.add(id);
    if (fresh.length === 0) return;
    for (const f of fresh) {
      sim.flowNet = sim.flowNet * FLOW_DECAY + f.dir * f.size;
      sim.flowTotal = sim.flowTotal * FLOW_DECAY + f.size;
    }
    const mm = sim.participants.find((q) => q.spec.role === 'marketMaker');
    if (mm) sim.fair = learnFromTrades(mm.spec.knobs as MarketMakerKnobs, sim.fair, fresh, tick);
  }

  /**
   * A market maker's quotes as a difference: its resting orders at a wanted (side, price) stay where
   * they are (queue place kept, even part-filled), the others are cancelled, and only the missing
   * levels are returned to place. Cancelling before placing keeps its own orders from ever crossing.
   */
  private async requote(p: Participant, market: Market, wanted: Intent[]): Promise<Intent[]> {
    const live = this.ownOrders(p, market);
    const missing: Intent[] = [];
    for (const w of wanted) {
      const i = live.findIndex((o) => o.side === w.side && o.price === w.price);
      if (i >= 0) live.splice(i, 1);
      else missing.push(w);
    }
    if (live.length > 0) await this.ctx.orders.cancel({ address: p.address }, live.map((o) => o.id));
    p.resting = wanted.length - missing.length;
    return missing;
  }

  /** The participant's resting orders on a market in Yes terms. */
  private ownOrders(p: Participant, market: Market): Array<{ id: string; side: 'BUY' | 'SELL'; price: number }> {
    return this.ctx.orders.listOpen({ address: p.address }, { market: market.conditionId }).data.map((o) => {
      const yesToken = ('assetId' in o ? o.assetId : o.asset_id) === market.tokenIds[0];
      const price = Number(parseUnits(o.price) ?? 0n);
      return { id: o.id, side: yesToken ? o.side : o.side === 'BUY' ? 'SELL' : 'BUY', price: yesToken ? price : ONE_NUM - price };
    });
  }

  /** Whether an intent would match one of the participant's own resting orders (compared in Yes terms). */
  private crossesOwn(p: Participant, market: Market, intents: Intent[]): boolean {
    const own = this.ownOrders(p, market);
    return intents.some((i) => own.some((o) => o.side !== i.side && (i.side === 'BUY' ? i.price >= o.price : i.price <= o.price)));
  }

  /** A participant whose free collateral fell below a quarter of its grant is topped up to the grant (counted). */
  private async topUp(p: Participant): Promise<void> {
    if (p.spec.grant <= 0) return;
    const grant = BigInt(p.spec.grant) * ONE;
    const free = this.ctx.orders.balanceOf(p.address, COLLATERAL).available;
    if (free * 4n >= grant) return;
    await this.ctx.orders.creditCollateral(p.address, grant - free, 'faucet');
    p.topUps++;
    this.topUps++;
  }

  /** After resolution the participants redeem what they hold (once per market). */
  private async redeemAll(sim: MarketSim, market: Market): Promise<void> {
    if (sim.redeemed) return;
    sim.redeemed = true;
    for (const q of sim.participants) {
      const held = this.ctx.orders.balanceOf(q.address, market.tokenIds[0]).balance + this.ctx.orders.balanceOf(q.address, market.tokenIds[1]).balance;
      if (held > 0n) await this.ctx.orders.redeem({ address: q.address }, market.conditionId);
    }
  }

  /** From now on the fair value learns only from trades still to come. */
  private forgetTrades(sim: MarketSim): void {
    sim.learnedAt = this.ctx.clock.nowMs();
    sim.learnedIds = this.tradeIdsAt(sim.conditionId, sim.learnedAt);
  }

  private tradeIdsAt(conditionId: string, ms: number): Set<string> {
    return new Set(this.trades.inWindow(conditionId, ms, ms).map((t) => t.id));
  }

  private presetOf(market: Market): MarketPreset {
    return demoPresetFor(market.question, this.runSeed) ?? defaultPreset(marketSeed(1000 + this.indexOf(market.conditionId), this.runSeed));
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

  /**
   * A Yes-terms intent as a signed order. It recycles inventory: a participant holding the token it
   * would otherwise sell against sells that (up to the intent's size, whole shares), and buys only
   * when it holds too little of it to make a minimum order.
   */
  private sign(market: Market, p: Participant, i: Intent, held: { yes: bigint; no: bigint }) {
    // A limit beyond the price range means "any price": the last tick before 0 or 1.
    const tick = Number(market.tickSize);
    const price = BigInt(Math.min(ONE_NUM - tick, Math.max(tick, i.price)));
    const size = BigInt(i.size);
    const salt = (BigInt(this.ctx.clock.nowMs()) * 1_000_000n + BigInt(p.salts++ % 1_000_000)).toString();
    const sellable = (have: bigint) => {
      const whole = (have / ONE) * ONE;
      return whole >= market.minOrderSize ? (whole < size ? whole : size) : 0n;
    };
    let body;
    if (i.side === 'BUY') {
      const s = sellable(held.no);
      held.no -= s;
      body = s > 0n ? p.signer.order(market, 1, 'SELL', ONE - price, s, salt) : p.signer.order(market, 0, 'BUY', price, size, salt);
    } else {
      const s = sellable(held.yes);
      held.yes -= s;
      body = s > 0n ? p.signer.order(market, 0, 'SELL', price, s, salt) : p.signer.order(market, 1, 'BUY', ONE - price, size, salt);
    }
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
      refused: p.refused,
      topUps: p.topUps,
    };
  }
}

const ONE_NUM = 1_000_000;
/** Weight of the flow seen before each new trade in the toxicity measure (about the last seven trades count). */
const FLOW_DECAY = 0.85;

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
