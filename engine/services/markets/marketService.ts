import { toHex, type Hex } from 'viem';
import { formatUnits } from '../../protocol/amounts.js';
import { binaryTokenIds, conditionIdOf, negRiskMarketIdOf, negRiskQuestionIdOf, questionIdOf } from '../../protocol/ctfIds.js';
import { ApiError } from '../../protocol/errors.js';
import { MarketRepo, type MarketRow } from '../../store/marketRepo.js';
import type { Infra } from '../infra.js';
import { prepareMarketOnChain, reportMarketOnChain } from './marketChain.js';
import { baseFeeBps, marketFees } from '../fees/takerFee.js';
import { feeScheduleToWire, type FeeSchedule } from '../../protocol/feeSchedule.js';
import type { PublicMarketIdentity } from '../mirror/mirrorTypes.js';

/** A market of the registry. Amounts are bigint micro-units (6 decimals); token ids decimal uint256 strings. */
export type Market = Readonly<MarketRow>;

/** What happened to a market, as its listeners are told. */
export type MarketChange = 'created' | 'resolved' | 'tick_size';

/** The tick sizes the public clients know (their ROUNDING_CONFIG keys), in micro-units. */
export const TICK_SIZES: readonly bigint[] = [100_000n, 10_000n, 1_000n, 100n];

export interface CreateMarketInput {
  question: string;
  description?: string;
  outcomes?: [string, string];
  /** Micro-units: 10_000n = 0.01. */
  tickSize: bigint;
  /** Micro-units of shares: 5_000_000n = 5. */
  minOrderSize: bigint;
  negRisk?: boolean;
  /** ISO 8601 date or date-time; null/undefined = open-ended. */
  endDate?: string | null;
  /** Integer ≥ 1; omitted → a fresh event id. */
  eventId?: number;
  /**
   * Base fee in basis points, 0..10000. Alone it makes the schedule `{rate: n/10000, exponent 1,
   * takerOnly, no rebate}`; beside `feeSchedule` it is only the base fee V1 orders sign (decisions §10).
   */
  feeRateBps?: number;
  /** The fee schedule fills pay by (the public Gamma form or ours); default: no fee, or from `feeRateBps`. */
  feeSchedule?: FeeSchedule | unknown;
}

export type PauseState = 'system_paused' | 'condition_paused' | null;

const SYSTEM_PAUSED_KEY = 'system_paused';
const MAX_QUESTION = 500;
const MAX_DESCRIPTION = 5000;
const MAX_OUTCOME = 100;

/** What the markets service uses, wired by engine/engine.ts (it calls no other service). */
export type MarketDeps = Pick<Infra, 'chain' | 'clock' | 'db' | 'writes'>;

/**
 * The market registry: every market's ids and trading parameters, its pause and resolution state, and
 * the global circuit breaker. All reads are served from memory; every change is committed to SQLite
 * before the call resolves.
 */
/** A market's lifecycle fields when it is created, local or mirrored: open, unresolved, no chain step done. */
const NEW_MARKET_STATE = {
  paused: false,
  winner: null,
  resolvedAt: null,
  closed: false,
  acceptingOrders: true,
  chainPrepared: false,
  chainReported: false,
} as const;

export class MarketService {
  private repo!: MarketRepo;
  private readonly byConditionId = new Map<string, Market>();
  private readonly byTokenId = new Map<string, { market: Market; outcomeIndex: 0 | 1 }>();
  private readonly ordered: Market[] = [];
  private systemPaused = false;
  /** Chain steps that failed, retried by init() on the next start and by retryChain(). */
  private chainBacklog: Promise<void> = Promise.resolve();
  private creating: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: MarketDeps) {}

  async init(): Promise<void> {
    this.repo = new MarketRepo(this.ctx.db);
    this.byConditionId.clear();
    this.byTokenId.clear();
    this.ordered.length = 0;
    for (const row of this.repo.all()) this.remember(row);
    this.systemPaused = this.repo.getSetting(SYSTEM_PAUSED_KEY) === '1';
    // Chain steps left unfinished by an earlier run (chain down, engine stopped midway) are retried in
    // the background: startup must not wait on the chain.
    this.retryChain();
  }

  /** Re-runs every unfinished chain step (condition preparation, payout report). */
  retryChain(): Promise<void> {
    if (!this.ctx.chain?.enabled) return this.chainBacklog;
    // A mirrored market's condition is the public one (another oracle, another collateral): it has no
    // local chain steps; its positions live in the paper ledger and redeem there.
    const pending = this.ordered.filter((m) => m.mirrorSource === null && (!m.chainPrepared || (m.winner !== null && !m.chainReported)));
    for (const m of pending) this.chainBacklog = this.chainBacklog.then(() => this.chainStep(m.conditionId));
    return this.chainBacklog;
  }

  /** Resolves when the chain steps queued so far have been attempted (tests, shutdown). */
  chainIdle(): Promise<void> {
    return this.chainBacklog;
  }

  /**
   * Creates a market. `waitForChain` (default true) resolves only after the condition is prepared on
   * chain (or the attempt failed and was queued for retry); demo seeding passes false to keep startup fast.
   */
  create(input: CreateMarketInput, opts: { waitForChain?: boolean } = {}): Promise<Market> {
    // One creation at a time: event ids, slugs and the ancillary nonce are derived from what exists.
    const run = this.creating.then(() => this.createNow(input, opts.waitForChain ?? true));
    this.creating = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async createNow(input: CreateMarketInput, waitForChain: boolean): Promise<Market> {
    const v = this.validate(input);
    const now = this.ctx.clock.nowMs();
    const oracle = this.ctx.chain.operatorAddress;
    const collateral = this.ctx.chain.contracts.collateral;
    const eventId = v.eventId ?? this.repo.maxEventId() + 1;
    const seq = this.ordered.length + 1;

    // The ancillary data carries a per-market nonce, so two markets with the same question still get
    // distinct question and condition ids (as two UMA requests would).
    const ancillary = `q: title: ${v.question}, description: ${v.description}, res_data: p1: 0, p2: 1, p3: 0.5. nonce: ${now}-${seq}`;
    let questionId: Hex;
    let negRiskMarketId = '';
    if (v.negRisk) {
      // No neg-risk adapter is deployed locally: the neg-risk market id and question id follow the
      // adapter's formulas (one neg-risk market per event, questions indexed within it), while the
      // condition and token ids use the standard CTF formulas with the operator as oracle, so they are
      // real positions on the local Conditional Tokens contract.
      const marketId = negRiskMarketIdOf(oracle, toHex(`event:${eventId}`));
      const index = this.ordered.filter((m) => m.negRisk && m.eventId === eventId).length;
      if (index > 255) throw new ApiError('invalid_field', `Event ${eventId} already holds 256 neg-risk questions, the adapter's maximum. Use another eventId.`);
      negRiskMarketId = marketId;
      questionId = negRiskQuestionIdOf(marketId, index);
      if (this.ordered.some((m) => m.questionId === questionId)) questionId = questionIdOf(ancillary);
    } else {
      questionId = questionIdOf(ancillary);
    }
    const conditionId = conditionIdOf(oracle, questionId, 2);
    if (this.byConditionId.has(conditionId)) throw new ApiError('invalid_field', 'A market with this condition id already exists; change the question.');
    const tokenIds = binaryTokenIds(collateral, conditionId);

    const row: MarketRow = {
      conditionId,
      questionId,
      question: v.question,
      slug: this.uniqueSlug(v.question),
      description: v.description,
      outcomes: v.outcomes,
      tokenIds,
      tickSize: v.tickSize,
      minOrderSize: v.minOrderSize,
      negRisk: v.negRisk,
      negRiskMarketId,
      eventId,
      endDate: v.endDate,
      createdAt: now,
      ...NEW_MARKET_STATE,
      feeRateBps: v.feeRateBps,
      mirrorSource: null,
      mirrorIdentity: null,
      mirrorFollowing: false,
      feeSchedule: v.feeSchedule,
    };
    // Row first, chain second: the market exists (and trades) even if the chain is down; the condition
    // is prepared on chain now or on a later retry.
    await this.ctx.writes.commit(() => this.repo.insert(row));
    const market = this.remember(row);
    for (const listener of this.onChange) listener('created', market);
    if (this.ctx.chain.enabled) {
      this.chainBacklog = this.chainBacklog.then(() => this.chainStep(conditionId));
      if (waitForChain) await this.chainBacklog;
    }
    return this.byConditionId.get(conditionId) ?? market;
  }

  /**
   * Creates the local copy of a public market (decisions §10): the public ids and rules unchanged, marked
   * with its `source` (`public`, or `tape:<file>` for a replay), following. No chain step: the public
   * condition's oracle is not ours. A local market's condition id is derived from the local operator as
   * oracle, so it never equals a public one; the same public market twice is refused.
   */
  createMirrored(identity: PublicMarketIdentity, source: string): Promise<Market> {
    const run = this.creating.then(() => this.createMirroredNow(identity, source));
    this.creating = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async createMirroredNow(identity: PublicMarketIdentity, source: string): Promise<Market> {
    const conditionId = identity.conditionId.toLowerCase() as `0x${string}`;
    if (this.byConditionId.has(conditionId)) {
      throw new ApiError('invalid_field', `Market ${conditionId} is already on this exchange; GET /markets/${conditionId} shows it, POST /admin/mirrors follows it again.`);
    }
    for (const t of identity.tokenIds) {
      if (this.byTokenId.has(t)) throw new ApiError('invalid_field', `Token ${t} of the public market already trades here in market ${this.byTokenId.get(t)!.market.conditionId}.`);
    }
    const tickSize = BigInt(identity.tickSize);
    if (!TICK_SIZES.includes(tickSize)) {
      throw new ApiError('invalid_field', `The public market's tick size ${formatUnits(tickSize)} is not one of 0.1, 0.01, 0.001, 0.0001; it cannot be mirrored.`);
    }
    const minOrderSize = identity.minOrderSize > 0 ? BigInt(identity.minOrderSize) : 1n;
    const endMs = identity.endDate === null ? NaN : Date.parse(identity.endDate);
    const wire = { ...identity, conditionId, feeSchedule: feeScheduleToWire(identity.feeSchedule) };
    const row: MarketRow = {
      conditionId,
      questionId: identity.questionId as `0x${string}`,
      question: identity.question,
      slug: this.uniqueSlug(identity.slug || identity.question),
      description: identity.description,
      outcomes: [identity.outcomes[0], identity.outcomes[1]],
      tokenIds: [identity.tokenIds[0], identity.tokenIds[1]],
      tickSize,
      minOrderSize,
      negRisk: identity.negRisk,
      negRiskMarketId: identity.negRiskMarketId,
      eventId: this.repo.maxEventId() + 1,
      endDate: Number.isNaN(endMs) ? null : new Date(endMs).toISOString(),
      createdAt: this.ctx.clock.nowMs(),
      ...NEW_MARKET_STATE,
      // The public schedule as is; the base fee is what GET /fee-rate tells a V1 client to sign.
      feeRateBps: baseFeeBps(identity.feeSchedule),
      feeSchedule: identity.feeSchedule,
      mirrorSource: source,
      mirrorIdentity: JSON.stringify(wire),
      mirrorFollowing: true,
    };
    await this.ctx.writes.commit(() => this.repo.insert(row));
    const market = this.remember(row);
    for (const listener of this.onChange) listener('created', market);
    return market;
  }

  /** Marks whether a mirrored market follows its public market (the mirror service re-follows those at start). */
  async setMirrorFollowing(conditionId: string, following: boolean): Promise<Market> {
    const m = this.requireMarket(conditionId);
    if (m.mirrorFollowing === following) return m;
    await this.ctx.writes.commit(() => this.repo.setMirrorFollowing(m.conditionId, following));
    return this.replace({ ...m, mirrorFollowing: following });
  }

  /** Stops a market taking orders without a winner (its public market closed); resting orders stay until it resolves. */
  async close(conditionId: string): Promise<Market> {
    const m = this.requireMarket(conditionId);
    if (m.closed) return m;
    await this.ctx.writes.commit(() => this.repo.setClosed(m.conditionId));
    return this.replace({ ...m, closed: true, acceptingOrders: false });
  }

  /**
   * Told of a resolution once it is durable and before anyone else hears of it; awaited, so the
   * resolution returns after them (the composition root subscribes the order service's cancels).
   */
  readonly onResolving = new Set<(m: Market) => Promise<unknown>>();

  /**
   * Told of each market created, resolved or given a new tick, once its row is durable (the streams'
   * events); `previous` is the market as it was before a tick change.
   */
  readonly onChange = new Set<(kind: MarketChange, market: Market, previous?: Market) => void>();

  byCondition(conditionId: string): Market | undefined {
    return this.byConditionId.get(conditionId.toLowerCase());
  }

  byToken(tokenId: string): { market: Market; outcomeIndex: 0 | 1 } | undefined {
    return this.byTokenId.get(tokenId);
  }

  /** Every market, oldest first (a stable order for paging). */
  list(): readonly Market[] {
    return this.ordered;
  }

  isSystemPaused(): boolean {
    return this.systemPaused;
  }

  /** Pauses one market, or the whole exchange when no condition id is given. Idempotent. */
  async pause(conditionId?: string): Promise<void> {
    await this.setPaused(conditionId, true);
  }

  async resume(conditionId?: string): Promise<void> {
    await this.setPaused(conditionId, false);
  }

  /**
   * Changes a market's fees (operator): `{feeRateBps: n}` (the schedule built from n bps) or a full
   * `{feeSchedule}` (its base fee `rate × 10000` unless `feeRateBps` is given too). Fills from now on pay
   * the new schedule; V1 orders signed with a feeRateBps below the new base fee are refused from now on.
   */
  async setFees(conditionId: string, input: { feeRateBps?: unknown; feeSchedule?: unknown }): Promise<Market> {
    const m = this.requireMarket(conditionId);
    const fees = marketFees(input);
    await this.ctx.writes.commit(() => this.repo.setFees(m.conditionId, fees.feeRateBps, fees.feeSchedule));
    return this.replace({ ...m, ...fees });
  }

  /** `setFees` with only a base fee in bps (the schedule `{rate: n/10000, exponent 1, takerOnly, no rebate}`). */
  setFeeRate(conditionId: string, feeRateBps: number): Promise<Market> {
    return this.setFees(conditionId, { feeRateBps });
  }

  /**
   * Changes a market's tick size (operator, scenarios). New orders must be on the new tick; orders
   * already resting stay where they are, as on the public exchange when a tick changes.
   */
  async setTickSize(conditionId: string, tickSize: bigint): Promise<Market> {
    const m = this.requireMarket(conditionId);
    if (!TICK_SIZES.includes(tickSize)) {
      throw new ApiError('invalid_field', `tickSize must be one of 0.1, 0.01, 0.001, 0.0001; got ${formatUnits(tickSize)}.`, { details: { field: 'tickSize' } });
    }
    if (m.tickSize === tickSize) return m;
    await this.ctx.writes.commit(() => this.repo.setTickSize(m.conditionId, tickSize));
    const changed = this.replace({ ...m, tickSize });
    for (const listener of this.onChange) listener('tick_size', changed, m);
    return changed;
  }

  /** Why placement on this market is refused right now, if it is: the global breaker wins. */
  pauseState(conditionId: string): PauseState {
    if (this.systemPaused) return 'system_paused';
    return this.byCondition(conditionId)?.paused ? 'condition_paused' : null;
  }

  /**
   * Resolves a market: records the winner and closes it (durably, first), tells onResolving (the order
   * service cancels its resting orders there), then reports the payouts on chain when there is one
   * (retried later if the chain call fails).
   */
  async resolve(conditionId: string, winningOutcomeIndex: number): Promise<Market> {
    const m = this.requireMarket(conditionId);
    if (winningOutcomeIndex !== 0 && winningOutcomeIndex !== 1) {
      throw new ApiError('invalid_field', `winningOutcomeIndex must be 0 (${m.outcomes[0]}) or 1 (${m.outcomes[1]}); got ${String(winningOutcomeIndex)}.`);
    }
    if (m.winner !== null) {
      throw new ApiError('market_resolved', `The market is already resolved: outcome ${m.winner} (${m.outcomes[m.winner]}) won. A resolution is final.`);
    }
    const at = this.ctx.clock.nowMs();
    await this.ctx.writes.commit(() => this.repo.setResolved(m.conditionId, winningOutcomeIndex, at));
    const resolved = this.replace({ ...m, winner: winningOutcomeIndex, resolvedAt: at, closed: true, acceptingOrders: false });
    for (const listener of this.onResolving) await listener(resolved);
    for (const listener of this.onChange) listener('resolved', resolved);
    if (this.ctx.chain.enabled && m.mirrorSource === null) {
      this.chainBacklog = this.chainBacklog.then(() => this.chainStep(m.conditionId));
      await this.chainBacklog;
    }
    return this.byConditionId.get(m.conditionId) ?? resolved;
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────

  private requireMarket(conditionId: string): Market {
    const m = this.byCondition(conditionId);
    if (!m) throw new ApiError('market_not_found', `No market has condition id ${conditionId}. List markets with GET /markets.`);
    return m;
  }

  private async setPaused(conditionId: string | undefined, paused: boolean): Promise<void> {
    if (conditionId === undefined) {
      await this.ctx.writes.commit(() => this.repo.setSetting(SYSTEM_PAUSED_KEY, paused ? '1' : '0'));
      this.systemPaused = paused;
      return;
    }
    const m = this.requireMarket(conditionId);
    await this.ctx.writes.commit(() => this.repo.setPaused(m.conditionId, paused));
    this.replace({ ...m, paused });
  }

  /** One attempt at whatever chain work the market still needs; failures stay recorded for a retry. */
  private async chainStep(conditionId: string): Promise<void> {
    const m = this.byConditionId.get(conditionId);
    if (!m || !this.ctx.chain.enabled || m.mirrorSource !== null) return;
    try {
      if (!m.chainPrepared) {
        await prepareMarketOnChain(this.ctx.chain, m);
        await this.ctx.writes.commit(() => this.repo.setChainPrepared(m.conditionId));
        this.replace({ ...this.byConditionId.get(conditionId)!, chainPrepared: true });
      }
      const cur = this.byConditionId.get(conditionId)!;
      if (cur.winner !== null && !cur.chainReported) {
        await reportMarketOnChain(this.ctx.chain, cur, cur.winner);
        await this.ctx.writes.commit(() => this.repo.setChainReported(cur.conditionId));
        this.replace({ ...this.byConditionId.get(conditionId)!, chainReported: true });
      }
    } catch (e) {
      // The market row stands; the step is retried on the next start (or retryChain()).
      console.warn(`[markets] chain step for ${conditionId} failed; will retry: ${(e as Error).message}`);
    }
  }

  private remember(row: MarketRow): Market {
    const m: Market = Object.freeze({ ...row, outcomes: [...row.outcomes], tokenIds: [...row.tokenIds] }) as Market;
    this.byConditionId.set(m.conditionId, m);
    this.byTokenId.set(m.tokenIds[0], { market: m, outcomeIndex: 0 });
    this.byTokenId.set(m.tokenIds[1], { market: m, outcomeIndex: 1 });
    const i = this.ordered.findIndex((x) => x.conditionId === m.conditionId);
    if (i >= 0) this.ordered[i] = m;
    else this.ordered.push(m);
    return m;
  }

  private replace(row: MarketRow): Market {
    return this.remember(row);
  }

  private uniqueSlug(text: string): string {
    const base =
      text
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80)
        .replace(/-+$/, '') || 'market';
    const taken = new Set(this.ordered.map((m) => m.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  private validate(input: CreateMarketInput) {
    const question = typeof input.question === 'string' ? input.question.trim() : '';
    if (question === '' || question.length > MAX_QUESTION) {
      throw new ApiError('invalid_field', `question must be a non-empty text of at most ${MAX_QUESTION} characters.`, { details: { field: 'question' } });
    }
    const description = (input.description ?? '').trim();
    if (description.length > MAX_DESCRIPTION) {
      throw new ApiError('invalid_field', `description must be at most ${MAX_DESCRIPTION} characters.`, { details: { field: 'description' } });
    }
    const outcomes = input.outcomes ?? ['Yes', 'No'];
    if (
      !Array.isArray(outcomes) ||
      outcomes.length !== 2 ||
      outcomes.some((o) => typeof o !== 'string' || o.trim() === '' || o.length > MAX_OUTCOME) ||
      outcomes[0].trim().toLowerCase() === outcomes[1].trim().toLowerCase()
    ) {
      throw new ApiError('invalid_field', 'outcomes must be two distinct non-empty labels, e.g. ["Yes","No"]; markets are binary.', { details: { field: 'outcomes' } });
    }
    if (!TICK_SIZES.includes(input.tickSize)) {
      throw new ApiError('invalid_field', `tickSize must be one of 0.1, 0.01, 0.001, 0.0001; got ${formatUnits(input.tickSize)}.`, { details: { field: 'tickSize' } });
    }
    if (input.minOrderSize <= 0n) {
      throw new ApiError('invalid_field', 'minOrderSize must be a positive share amount, e.g. "5".', { details: { field: 'minOrderSize' } });
    }
    let endDate: string | null = null;
    if (input.endDate !== undefined && input.endDate !== null) {
      const ms = typeof input.endDate === 'string' && /^\d{4}-\d{2}-\d{2}/.test(input.endDate) ? Date.parse(input.endDate) : NaN;
      if (Number.isNaN(ms)) {
        throw new ApiError('invalid_field', `endDate must be an ISO 8601 date or date-time such as "2026-12-31T23:59:59Z"; got ${JSON.stringify(input.endDate)}.`, { details: { field: 'endDate' } });
      }
      endDate = new Date(ms).toISOString();
    }
    if (input.eventId !== undefined && (!Number.isSafeInteger(input.eventId) || input.eventId < 1)) {
      throw new ApiError('invalid_field', `eventId must be an integer ≥ 1; got ${JSON.stringify(input.eventId)}.`, { details: { field: 'eventId' } });
    }
    return {
      question,
      description,
      outcomes: [outcomes[0].trim(), outcomes[1].trim()] as [string, string],
      tickSize: input.tickSize,
      minOrderSize: input.minOrderSize,
      negRisk: input.negRisk === true,
      endDate,
      eventId: input.eventId,
      ...marketFees(input),
    };
  }
}
