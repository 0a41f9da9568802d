import { NO_FEE, parseFeeSchedule, type FeeSchedule } from '../../../protocol/feeSchedule.js';
import type { PublicCatalogueEntry, PublicMarketIdentity } from '../mirrorTypes.js';
import { jsonArray } from '../marketDecoder.js';
import { microOf, microOfWire } from './wireDecimal.js';

/**
 * Public market objects (Gamma §1.5, CLOB §2.1 of the reference) to the identity a mirror keeps.
 * Each returns the identity or a sentence saying which field was unusable; nothing throws.
 */
type Obj = Record<string, unknown>;
type Built<T> = T | { problem: string };

const CONDITION_ID = /^0x[0-9a-fA-F]{62}([0-9a-fA-F]{2})?$/;
const TOKEN_ID = /^\d{1,78}$/;

export function isConditionId(ref: string): boolean {
  return CONDITION_ID.test(ref);
}

/** A Gamma market object (`/markets/slug/{slug}`, `/markets?condition_ids=`, search results). */
export function identityFromGamma(m: unknown): Built<PublicMarketIdentity> {
  if (!isObj(m)) return { problem: 'the Gamma market is not an object' };
  const conditionId = str(m.conditionId);
  if (!conditionId || !CONDITION_ID.test(conditionId)) return { problem: `the Gamma market has no deployed condition id (conditionId ${JSON.stringify(m.conditionId)})` };
  // JSON text inside JSON (reference §7.1).
  const tokenIds = pair(typeof m.clobTokenIds === 'string' ? jsonArray(m.clobTokenIds) : undefined);
  if (!tokenIds || !tokenIds.every((t) => TOKEN_ID.test(t))) return { problem: `the Gamma market ${conditionId} has no two CLOB token ids (clobTokenIds ${JSON.stringify(m.clobTokenIds)})` };
  const outcomes = pair(typeof m.outcomes === 'string' ? jsonArray(m.outcomes) : undefined);
  if (!outcomes) return { problem: `the Gamma market ${conditionId} is not binary (outcomes ${JSON.stringify(m.outcomes)})` };
  const tickSize = microOfWire(m.orderPriceMinTickSize);
  if (tickSize === undefined || tickSize <= 0 || tickSize >= 1_000_000) return { problem: `the Gamma market ${conditionId} has no usable orderPriceMinTickSize (${JSON.stringify(m.orderPriceMinTickSize)})` };
  const minOrderSize = microOfWire(m.orderMinSize ?? 0);
  if (minOrderSize === undefined) return { problem: `the Gamma market ${conditionId} has no usable orderMinSize (${JSON.stringify(m.orderMinSize)})` };
  let feeSchedule: FeeSchedule = NO_FEE;
  if (m.feeSchedule !== undefined && m.feeSchedule !== null && m.feesEnabled !== false) {
    const parsed = parseFeeSchedule(m.feeSchedule);
    if ('problem' in parsed) return { problem: `the Gamma market ${conditionId}: ${parsed.problem}` };
    feeSchedule = parsed;
  }
  const closed = m.closed === true;
  return Object.freeze({
    conditionId,
    questionId: str(m.questionID) ?? '',
    question: str(m.question) ?? '',
    description: str(m.description) ?? '',
    slug: str(m.slug) ?? '',
    outcomes,
    tokenIds,
    tickSize,
    minOrderSize,
    negRisk: m.negRisk === true,
    negRiskMarketId: str(m.negRiskMarketID) ?? '',
    endDate: str(m.endDate) || null,
    feeSchedule,
    image: str(m.image) ?? '',
    closed,
    acceptingOrders: !closed && m.acceptingOrders !== false,
    winner: closed ? gammaWinner(m.outcomePrices) : null,
  });
}

/**
 * A CLOB `GET /markets/{condition_id}` answer. It carries no fee schedule: the caller passes the one it
 * found (Gamma's, or the `/fee-rate` bps as decisions §10 reads a bare bps rate).
 */
export function identityFromClob(m: unknown, feeSchedule: FeeSchedule): Built<PublicMarketIdentity> {
  if (!isObj(m)) return { problem: 'the CLOB market is not an object' };
  const conditionId = str(m.condition_id);
  if (!conditionId || !CONDITION_ID.test(conditionId)) return { problem: `the CLOB market has no condition id (${JSON.stringify(m.condition_id)})` };
  const tokens = Array.isArray(m.tokens) ? m.tokens.filter(isObj) : [];
  const tokenIds = pair(tokens.map((t) => t.token_id));
  // Newly created markets answer with empty token ids for a few minutes (reference §2.1, hydration window).
  if (tokens.length !== 2 || !tokenIds || !tokenIds.every((t) => TOKEN_ID.test(t))) return { problem: `the CLOB market ${conditionId} has no two token ids yet (new markets take a few minutes); retry later` };
  const tickSize = microOfWire(m.minimum_tick_size);
  if (tickSize === undefined || tickSize <= 0 || tickSize >= 1_000_000) return { problem: `the CLOB market ${conditionId} has no usable minimum_tick_size (${JSON.stringify(m.minimum_tick_size)})` };
  const minOrderSize = microOfWire(m.minimum_order_size ?? 0);
  if (minOrderSize === undefined) return { problem: `the CLOB market ${conditionId} has no usable minimum_order_size (${JSON.stringify(m.minimum_order_size)})` };
  const winners = tokens.map((t, i) => (t.winner === true ? i : -1)).filter((i) => i >= 0);
  const closed = m.closed === true;
  return Object.freeze({
    conditionId,
    questionId: str(m.question_id) ?? '',
    question: str(m.question) ?? '',
    description: str(m.description) ?? '',
    slug: str(m.market_slug) ?? '',
    outcomes: [str(tokens[0]!.outcome) ?? 'Yes', str(tokens[1]!.outcome) ?? 'No'] as const,
    tokenIds,
    tickSize,
    minOrderSize,
    negRisk: m.neg_risk === true,
    negRiskMarketId: str(m.neg_risk_market_id) ?? '',
    endDate: str(m.end_date_iso) || null,
    feeSchedule,
    image: str(m.image) ?? '',
    closed: closed || winners.length === 1,
    acceptingOrders: !closed && m.accepting_orders !== false,
    winner: winners.length === 1 ? (winners[0] as 0 | 1) : null,
  });
}

/** One row of Gamma `/public-search` (an event's market); undefined for markets a mirror cannot follow. */
export function catalogueEntryOf(market: unknown, eventTitle: string): PublicCatalogueEntry | undefined {
  if (!isObj(market)) return undefined;
  const conditionId = str(market.conditionId);
  const outcomes = pair(typeof market.outcomes === 'string' ? jsonArray(market.outcomes) : undefined);
  if (!conditionId || !CONDITION_ID.test(conditionId) || !outcomes) return undefined;
  const prices = pair(typeof market.outcomePrices === 'string' ? jsonArray(market.outcomePrices) : undefined);
  const volume = typeof market.volume === 'string' ? market.volume : typeof market.volume === 'number' ? String(market.volume) : typeof market.volumeNum === 'number' ? String(market.volumeNum) : '0';
  return Object.freeze({
    conditionId,
    slug: str(market.slug) ?? '',
    question: str(market.question) ?? '',
    eventTitle,
    outcomes,
    outcomePrices: prices ?? null,
    volume,
    closed: market.closed === true,
    image: str(market.image) ?? '',
  });
}

/** nautilus's rule (reference §4): one price ≥ 0.999 and the other ≤ 0.001; else no winner yet. */
function gammaWinner(outcomePrices: unknown): 0 | 1 | null {
  const p = pair(typeof outcomePrices === 'string' ? jsonArray(outcomePrices) : undefined)?.map((x) => microOf(x));
  if (!p || p[0] === undefined || p[1] === undefined) return null;
  if (p[0] >= 999_000 && p[1] <= 1_000) return 0;
  if (p[1] >= 999_000 && p[0] <= 1_000) return 1;
  return null;
}

function pair(v: unknown[] | undefined): readonly [string, string] | undefined {
  if (!v || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string') return undefined;
  return [v[0], v[1]] as const;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
