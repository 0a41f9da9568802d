import { parseFeeSchedule } from '../../protocol/feeSchedule.js';
import type { Market } from '../markets/marketService.js';
import type { PublicMarketIdentity } from './mirrorTypes.js';

/**
 * The public identity a mirrored market was created with (stored as JSON by MarketService.createMirrored,
 * the fee schedule in its wire form), read back to follow the market again after a restart; undefined
 * when the row holds none or it cannot be read.
 */
export function identityOfRow(m: Pick<Market, 'mirrorIdentity'>): PublicMarketIdentity | undefined {
  if (m.mirrorIdentity === null) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(m.mirrorIdentity);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  const fee = parseFeeSchedule(o.feeSchedule);
  if ('problem' in fee) return undefined;
  const pair = (v: unknown): [string, string] | undefined => (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string') ? [v[0] as string, v[1] as string] : undefined);
  const outcomes = pair(o.outcomes);
  const tokenIds = pair(o.tokenIds);
  if (!outcomes || !tokenIds || typeof o.conditionId !== 'string' || typeof o.tickSize !== 'number' || typeof o.minOrderSize !== 'number') return undefined;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    conditionId: o.conditionId,
    questionId: str(o.questionId),
    question: str(o.question),
    description: str(o.description),
    slug: str(o.slug),
    outcomes,
    tokenIds,
    tickSize: o.tickSize,
    minOrderSize: o.minOrderSize,
    negRisk: o.negRisk === true,
    negRiskMarketId: str(o.negRiskMarketId),
    endDate: typeof o.endDate === 'string' ? o.endDate : null,
    feeSchedule: fee,
    image: str(o.image),
    closed: o.closed === true,
    acceptingOrders: o.acceptingOrders !== false,
    winner: o.winner === 0 || o.winner === 1 ? o.winner : null,
  };
}
