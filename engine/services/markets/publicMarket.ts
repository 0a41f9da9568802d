import { formatUnits } from '../../protocol/amounts.js';
import type { MirrorStatus } from '../mirror/mirrorTypes.js';
import { feeScheduleToWire, type FeeScheduleWire } from '../../protocol/feeSchedule.js';
import type { Market } from './marketService.js';

/** A token of a public market: one per outcome, by outcome index. */
export interface PublicToken {
  token_id: string;
  outcome: string;
  price: number;
  winner: boolean;
}

/**
 * The CLOB Market record (data-api.md §6.1): the public field set with the public types (numbers for
 * tick and minimum size), plus `event_id` (decisions §7) and `paused` (this exchange's breaker state).
 */
export interface PublicMarket {
  condition_id: string;
  question_id: string;
  question: string;
  market_slug: string;
  description: string;
  tokens: PublicToken[];
  minimum_order_size: number;
  minimum_tick_size: number;
  neg_risk: boolean;
  neg_risk_market_id: string;
  neg_risk_request_id: string;
  end_date_iso: string | null;
  game_start_time: string | null;
  seconds_delay: number;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  accepting_order_timestamp: string;
  enable_order_book: boolean;
  maker_base_fee: number;
  taker_base_fee: number;
  /** What fills pay (decisions §10); `taker_base_fee` is the base fee V1 orders sign. */
  fee_schedule: FeeScheduleWire;
  rewards: { rates: null; min_size: number; max_spread: number };
  is_50_50_outcome: boolean;
  icon: string;
  image: string;
  fpmm: string;
  notifications_enabled: boolean;
  tags: string[];
  event_id: number;
  paused: boolean;
  /** Where a mirrored market's depth comes from and how fresh it is (decisions §10); null for a local market. */
  mirror: MirrorStatus | null;
}

/** Wire numbers are parsed from exact decimal strings, never computed in floating point. */
function num(micro: bigint): number {
  return Number(formatUnits(micro));
}

export function publicMarket(m: Market, prices: [string, string], systemPaused: boolean, mirror: MirrorStatus | null = null): PublicMarket {
  return {
    condition_id: m.conditionId,
    question_id: m.questionId,
    question: m.question,
    market_slug: m.slug,
    description: m.description,
    tokens: [0, 1].map((i) => ({
      token_id: m.tokenIds[i]!,
      outcome: m.outcomes[i]!,
      price: Number(prices[i]!),
      winner: m.winner === i,
    })),
    minimum_order_size: num(m.minOrderSize),
    minimum_tick_size: num(m.tickSize),
    neg_risk: m.negRisk,
    neg_risk_market_id: m.negRiskMarketId,
    neg_risk_request_id: m.negRisk ? m.questionId : '',
    end_date_iso: m.endDate,
    game_start_time: null,
    seconds_delay: 0,
    active: !m.closed,
    closed: m.closed,
    archived: false,
    accepting_orders: m.acceptingOrders && !m.closed && !m.paused && !systemPaused,
    accepting_order_timestamp: new Date(m.createdAt).toISOString(),
    enable_order_book: true,
    maker_base_fee: 0,
    taker_base_fee: m.feeRateBps,
    fee_schedule: feeScheduleToWire(m.feeSchedule),
    rewards: { rates: null, min_size: 0, max_spread: 0 },
    is_50_50_outcome: false,
    icon: '',
    image: '',
    fpmm: '',
    notifications_enabled: false,
    tags: [],
    event_id: m.eventId,
    paused: m.paused,
    mirror,
  };
}
