/**
 * What a fill was, in words: which resting orders a taker order matched (or which of the caller's
 * resting orders a taker hit), maker or taker, and the fee. Amounts stay decimal text.
 */
import { formatUnits } from '../../../engine/protocol/amounts.js';
import type { TradeRecord } from '../api/types.js';
import { toMicros } from '../format.js';

export interface FillLeg {
  orderId: string;
  maker: string;
  outcome: string;
  side: string;
  price: string;
  size: string;
  mine: boolean;
}

export interface FillExplanation {
  role: 'maker' | 'taker';
  legs: FillLeg[];
  /** Fee the caller paid on this fill in USDC (decimal text), as the exchange charged it (the trade's `fee`). */
  fee: string;
  /** Maker rebate the caller earned on this fill (decimal text), when the market pays one. */
  rebate?: string;
  summary: string;
}

export function explainFill(t: TradeRecord, myAddress: string): FillExplanation {
  const me = myAddress.toLowerCase();
  const role = t.trader_side === 'MAKER' ? 'maker' : 'taker';
  const legs = t.maker_orders.map((m) => ({
    orderId: m.order_id,
    maker: m.maker_address,
    outcome: m.outcome,
    side: m.side,
    price: m.price,
    size: m.matched_amount,
    mine: m.maker_address.toLowerCase() === me,
  }));
  // What the exchange charged (the market's fee schedule, decisions §10), never recomputed here.
  const fee = formatUnits(toMicros(t.fee ?? '0') ?? 0n);
  const rebate = typeof t.rebate === 'string' && (toMicros(t.rebate) ?? 0n) > 0n ? formatUnits(toMicros(t.rebate)!) : undefined;
  const feeText = `Fee ${fee} USDC${rebate === undefined ? '' : `, rebate ${rebate} USDC`}.`;
  const kind = t.type === 'MINT' ? ' (a mint: both buyers paid into new shares)' : t.type === 'MERGE' ? ' (a merge: both sellers were paid out of the shares)' : '';
  const summary =
    role === 'taker'
      ? `Your ${t.side} order took ${legs.length} resting order${legs.length === 1 ? '' : 's'}: ${legs.map((l) => `${l.size} @ ${l.price} ${l.outcome}`).join(', ')}${kind}. ${feeText}`
      : `A ${t.side} taker order hit your resting order${legs.filter((l) => l.mine).length === 1 ? '' : 's'}: ${legs
          .filter((l) => l.mine)
          .map((l) => `${l.size} @ ${l.price} ${l.outcome}`)
          .join(', ')}${kind}. ${feeText}`;
  return { role, legs, fee, ...(rebate === undefined ? {} : { rebate }), summary };
}
