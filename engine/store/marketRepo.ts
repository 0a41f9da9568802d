import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { FeeSchedule } from '../protocol/feeSchedule.js';

/** One row of the markets table, in store terms (micro-unit integers as bigint, flags as booleans). */
export interface MarketRow {
  conditionId: `0x${string}`;
  questionId: `0x${string}`;
  question: string;
  slug: string;
  description: string;
  outcomes: [string, string];
  tokenIds: [string, string];
  tickSize: bigint;
  minOrderSize: bigint;
  negRisk: boolean;
  negRiskMarketId: string;
  eventId: number;
  endDate: string | null;
  createdAt: number;
  paused: boolean;
  winner: 0 | 1 | null;
  resolvedAt: number | null;
  closed: boolean;
  acceptingOrders: boolean;
  chainPrepared: boolean;
  chainReported: boolean;
  /** Base fee in basis points (migration 008): what GET /fee-rate answers and a V1 order's signed feeRateBps must reach. */
  feeRateBps: number;
  /** Mirrored markets (migration 012): `public` or `tape:<file>`; null for a local market. */
  mirrorSource: string | null;
  /** The public identity as resolved (JSON), for re-following after a restart; null for a local market. */
  mirrorIdentity: string | null;
  /** False once the operator stopped following the public market (or for a local market). */
  mirrorFollowing: boolean;
  /** The fee schedule every fill pays by (migration 011, decisions §10). */
  feeSchedule: FeeSchedule;
}

interface RawRow {
  condition_id: string;
  question_id: string;
  question: string;
  slug: string;
  description: string;
  outcome_0: string;
  outcome_1: string;
  token_id_0: string;
  token_id_1: string;
  tick_size: bigint;
  min_order_size: bigint;
  neg_risk: bigint;
  neg_risk_market_id: string;
  event_id: bigint;
  end_date: string | null;
  created_at: bigint;
  paused: bigint;
  winner: bigint | null;
  resolved_at: bigint | null;
  closed: bigint;
  accepting_orders: bigint;
  chain_prepared: bigint;
  chain_reported: bigint;
  fee_rate_bps: bigint;
  mirror_source: string | null;
  mirror_identity: string | null;
  mirror_following: bigint | null;
  fee_rate: bigint;
  fee_exponent: bigint;
  fee_taker_only: bigint;
  fee_rebate_rate: bigint;
}

function fromRaw(r: RawRow): MarketRow {
  return {
    conditionId: r.condition_id as `0x${string}`,
    questionId: r.question_id as `0x${string}`,
    question: r.question,
    slug: r.slug,
    description: r.description,
    outcomes: [r.outcome_0, r.outcome_1],
    tokenIds: [r.token_id_0, r.token_id_1],
    tickSize: BigInt(r.tick_size),
    minOrderSize: BigInt(r.min_order_size),
    negRisk: Number(r.neg_risk) === 1,
    negRiskMarketId: r.neg_risk_market_id,
    eventId: Number(r.event_id),
    endDate: r.end_date,
    createdAt: Number(r.created_at),
    paused: Number(r.paused) === 1,
    winner: r.winner === null ? null : (Number(r.winner) as 0 | 1),
    resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at),
    closed: Number(r.closed) === 1,
    acceptingOrders: Number(r.accepting_orders) === 1,
    chainPrepared: Number(r.chain_prepared) === 1,
    chainReported: Number(r.chain_reported) === 1,
    feeRateBps: Number(r.fee_rate_bps ?? 0n),
    mirrorSource: r.mirror_source ?? null,
    mirrorIdentity: r.mirror_identity ?? null,
    mirrorFollowing: Number(r.mirror_following ?? 0n) === 1,
    feeSchedule: Object.freeze({
      rate: BigInt(r.fee_rate),
      exponent: Number(r.fee_exponent),
      takerOnly: Number(r.fee_taker_only) === 1,
      rebateRate: BigInt(r.fee_rebate_rate),
    }),
  };
}

/**
 * The markets table and the settings keys the market registry owns. Reads run directly; the write
 * methods are meant to be called inside `ctx.writes.commit(...)` so they join the turn's transaction.
 */
export class MarketRepo {
  private readonly sAll: Statement;
  private readonly sInsert: Statement;
  private readonly sPaused: Statement;
  private readonly sResolved: Statement;
  private readonly sChainPrepared: Statement;
  private readonly sChainReported: Statement;
  private readonly sFeeRate: Statement;
  private readonly sFeeSchedule: Statement;
  private readonly sTickSize: Statement;
  private readonly sMirror: Statement;
  private readonly sMirrorFollowing: Statement;
  private readonly sClosed: Statement;
  private readonly sMaxEvent: Statement;
  private readonly sGetSetting: Statement;
  private readonly sSetSetting: Statement;

  constructor(private readonly db: Db) {
    this.sAll = db.prepare('SELECT * FROM markets ORDER BY seq').safeIntegers(true);
    this.sInsert = db.prepare(`INSERT INTO markets (condition_id, question_id, question, slug, description, outcome_0, outcome_1,
      token_id_0, token_id_1, tick_size, min_order_size, neg_risk, neg_risk_market_id, event_id, end_date, created_at, paused,
      winner, resolved_at, closed, accepting_orders, chain_prepared, chain_reported, fee_rate_bps)
      VALUES (@condition_id, @question_id, @question, @slug, @description, @outcome_0, @outcome_1, @token_id_0, @token_id_1,
      @tick_size, @min_order_size, @neg_risk, @neg_risk_market_id, @event_id, @end_date, @created_at, @paused, @winner,
      @resolved_at, @closed, @accepting_orders, @chain_prepared, @chain_reported, @fee_rate_bps)`);
    this.sPaused = db.prepare('UPDATE markets SET paused = ? WHERE condition_id = ?');
    this.sResolved = db.prepare('UPDATE markets SET winner = ?, resolved_at = ?, closed = 1, accepting_orders = 0 WHERE condition_id = ?');
    this.sChainPrepared = db.prepare('UPDATE markets SET chain_prepared = 1 WHERE condition_id = ?');
    this.sChainReported = db.prepare('UPDATE markets SET chain_reported = 1 WHERE condition_id = ?');
    this.sFeeRate = db.prepare('UPDATE markets SET fee_rate_bps = ? WHERE condition_id = ?');
    this.sFeeSchedule = db.prepare('UPDATE markets SET fee_rate = ?, fee_exponent = ?, fee_taker_only = ?, fee_rebate_rate = ? WHERE condition_id = ?');
    this.sTickSize = db.prepare('UPDATE markets SET tick_size = ? WHERE condition_id = ?');
    this.sMirror = db.prepare('UPDATE markets SET mirror_source = ?, mirror_identity = ?, mirror_following = ? WHERE condition_id = ?');
    this.sMirrorFollowing = db.prepare('UPDATE markets SET mirror_following = ? WHERE condition_id = ?');
    this.sClosed = db.prepare('UPDATE markets SET closed = 1, accepting_orders = 0 WHERE condition_id = ?');
    this.sMaxEvent = db.prepare('SELECT COALESCE(MAX(event_id), 0) FROM markets').pluck();
    this.sGetSetting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
    this.sSetSetting = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  }

  all(): MarketRow[] {
    return (this.sAll.all() as RawRow[]).map(fromRaw);
  }

  maxEventId(): number {
    return Number(this.sMaxEvent.get() as number);
  }

  insert(m: MarketRow): void {
    this.sInsert.run({
      condition_id: m.conditionId,
      question_id: m.questionId,
      question: m.question,
      slug: m.slug,
      description: m.description,
      outcome_0: m.outcomes[0],
      outcome_1: m.outcomes[1],
      token_id_0: m.tokenIds[0],
      token_id_1: m.tokenIds[1],
      tick_size: m.tickSize,
      min_order_size: m.minOrderSize,
      neg_risk: m.negRisk ? 1 : 0,
      neg_risk_market_id: m.negRiskMarketId,
      event_id: m.eventId,
      end_date: m.endDate,
      created_at: m.createdAt,
      paused: m.paused ? 1 : 0,
      winner: m.winner,
      resolved_at: m.resolvedAt,
      closed: m.closed ? 1 : 0,
      accepting_orders: m.acceptingOrders ? 1 : 0,
      chain_prepared: m.chainPrepared ? 1 : 0,
      chain_reported: m.chainReported ? 1 : 0,
      fee_rate_bps: m.feeRateBps,
    });
    // The schedule is written apart from the insert's column list, which other migrations extend.
    this.writeFeeSchedule(m.conditionId, m.feeSchedule);
    // The mirror columns are written apart from the insert's column list, which other migrations extend.
    if (m.mirrorSource !== null) this.sMirror.run(m.mirrorSource, m.mirrorIdentity, m.mirrorFollowing ? 1 : 0, m.conditionId);
  }

  setMirrorFollowing(conditionId: string, following: boolean): void {
    this.sMirrorFollowing.run(following ? 1 : 0, conditionId);
  }

  /** Stops trading without a winner (a mirrored market closed upstream). */
  setClosed(conditionId: string): void {
    this.sClosed.run(conditionId);
  }

  setPaused(conditionId: string, paused: boolean): void {
    this.sPaused.run(paused ? 1 : 0, conditionId);
  }

  setResolved(conditionId: string, winner: 0 | 1, resolvedAt: number): void {
    this.sResolved.run(winner, resolvedAt, conditionId);
  }

  setChainPrepared(conditionId: string): void {
    this.sChainPrepared.run(conditionId);
  }

  setChainReported(conditionId: string): void {
    this.sChainReported.run(conditionId);
  }

  /** A market's fees: the base fee in bps and the schedule fills pay by. */
  setFees(conditionId: string, feeRateBps: number, schedule: FeeSchedule): void {
    this.sFeeRate.run(feeRateBps, conditionId);
    this.writeFeeSchedule(conditionId, schedule);
  }

  private writeFeeSchedule(conditionId: string, s: FeeSchedule): void {
    this.sFeeSchedule.run(s.rate, s.exponent, s.takerOnly ? 1 : 0, s.rebateRate, conditionId);
  }

  setTickSize(conditionId: string, tickSize: bigint): void {
    this.sTickSize.run(tickSize, conditionId);
  }

  getSetting(key: string): string | undefined {
    return this.sGetSetting.get(key) as string | undefined;
  }

  setSetting(key: string, value: string): void {
    this.sSetSetting.run(key, value);
  }
}
