import { formatUnits } from '../../protocol/amounts.js';
import type { OrderEvent, TradeEvent, Unsequenced } from '../../protocol/streamEvents.js';
import type { OrderRow } from '../../store/orderRepo.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { StreamDeps } from './streamDeps.js';
import { makerFillWireFields, tradeWireFields } from '../orders/tradeRecord.js';
import type { StreamConnection } from './streamTransport.js';

/** A user-channel connection as the channel sees it: whose events, which markets, its own seq. */
export interface UserSubscriber extends StreamConnection {
  readonly address: string;
  readonly apiKey: string;
  /** Whether this connection is told about the market (condition id, lower-case). */
  follows(conditionId: string): boolean;
  seq: number;
}

/**
 * The user channel: `order` and `trade` events of a key owner's orders, built from the writes of each
 * durable change (so only committed changes are told), for the taker and every maker of a fill.
 */
export class UserChannel {
  private readonly byOwner = new Map<string, Set<UserSubscriber>>();

  constructor(private readonly ctx: Pick<StreamDeps, 'clock' | 'markets' | 'orders'>) {}

  get active(): boolean {
    return this.byOwner.size > 0;
  }

  add(sub: UserSubscriber): void {
    const set = this.byOwner.get(sub.address) ?? new Set();
    set.add(sub);
    this.byOwner.set(sub.address, set);
  }

  remove(sub: UserSubscriber): void {
    const set = this.byOwner.get(sub.address);
    if (!set) return;
    set.delete(sub);
    if (set.size === 0) this.byOwner.delete(sub.address);
  }

  /** Every connection authenticated with `apiKey`. */
  withKey(apiKey: string): UserSubscriber[] {
    const out: UserSubscriber[] = [];
    for (const set of this.byOwner.values()) for (const s of set) if (s.apiKey === apiKey) out.push(s);
    return out;
  }

  /** Publishes the user events of one committed group of writes. */
  publish(ops: readonly OrderWrite[]): void {
    if (this.byOwner.size === 0) return;
    const nowSec = String(Math.floor(this.ctx.clock.nowMs() / 1000));
    const tradesByTaker = new Map<string, string[]>();
    for (const op of ops) if (op.kind === 'trade') tradesByTaker.set(op.row.takerOrderId, [...(tradesByTaker.get(op.row.takerOrderId) ?? []), op.row.id]);
    for (const op of ops) {
      if (op.kind === 'order') {
        const row = op.row;
        if (row.status === 'open' || row.status === 'partially_filled') this.orderEvent('PLACEMENT', factsOf(row), tradesByTaker.get(row.id) ?? [], nowSec);
      } else if (op.kind === 'fill') {
        const row = this.rowOf(op.id);
        if (row) this.orderEvent('UPDATE', { ...row, sizeMatched: formatUnits(op.sizeMatched) }, row.trades, nowSec);
      } else if (op.kind === 'cancel') {
        const row = this.rowOf(op.id);
        if (row) this.orderEvent('CANCELLATION', row, row.trades, nowSec);
      } else if (op.kind === 'trade') {
        for (const status of ['MATCHED', 'CONFIRMED'] as const) this.tradeEvent(op.row, status, nowSec);
      }
    }
  }

  /** An order's facts after its change committed (its row is in the table or still live), with its trades so far (as GET /data/orders lists them). */
  private rowOf(id: string): (OrderFacts & { trades: string[] }) | undefined {
    try {
      const r = this.ctx.orders.get(id);
      const outcomeIndex = r.outcome.endsWith(':1') ? 1 : 0;
      return { id: r.id, owner: r.owner, conditionId: r.market, tokenId: r.assetId, side: r.side, outcomeIndex, price: r.price, originalSize: r.originalSize, sizeMatched: r.sizeMatched, trades: r.associateTrades };
    } catch {
      return undefined;
    }
  }

  private targets(owner: string, conditionId: string): UserSubscriber[] {
    const set = this.byOwner.get(owner.toLowerCase());
    if (!set) return [];
    const c = conditionId.toLowerCase();
    return [...set].filter((s) => s.follows(c));
  }

  private outcomeName(conditionId: string, index: 0 | 1): string {
    return this.ctx.markets.byCondition(conditionId)?.outcomes[index] ?? String(index);
  }

  private orderEvent(type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION', o: OrderFacts, trades: string[], nowSec: string): void {
    for (const s of this.targets(o.owner, o.conditionId)) {
      send(s, {
        event_type: 'order',
        type,
        id: o.id,
        owner: s.apiKey,
        order_owner: s.apiKey,
        market: o.conditionId,
        asset_id: o.tokenId,
        side: o.side,
        outcome: this.outcomeName(o.conditionId, o.outcomeIndex),
        price: o.price,
        original_size: o.originalSize,
        size_matched: o.sizeMatched,
        associate_trades: trades,
        timestamp: nowSec,
      });
    }
  }

  private tradeEvent(t: TradeRow, status: 'MATCHED' | 'CONFIRMED', nowSec: string): void {
    const takerSubs = this.targets(t.takerOwner, t.conditionId);
    const makerSubs = this.targets(t.makerOwner, t.conditionId).filter((s) => !takerSubs.includes(s));
    if (takerSubs.length === 0 && makerSubs.length === 0) return;
    const label = (i: 0 | 1): string => this.outcomeName(t.conditionId, i);
    const fields = tradeWireFields(t, label);
    const makerFill = makerFillWireFields(t, label);
    const matchtime = String(Math.floor(t.matchTime / 1000));
    for (const [subs, role] of [[takerSubs, 'TAKER'], [makerSubs, 'MAKER']] as const) {
      for (const s of subs) {
        send(s, {
          event_type: 'trade',
          type: 'TRADE',
          ...fields,
          status,
          owner: s.apiKey,
          trade_owner: s.apiKey,
          trader_side: role,
          matchtime,
          last_update: nowSec,
          timestamp: nowSec,
          // The subscriber's own key when the maker order is its own (as maker, or both sides of a self-trade).
          maker_orders: [{ ...makerFill, owner: s.address === t.makerOwner.toLowerCase() ? s.apiKey : '' }],
        });
      }
    }
  }
}

/** What an order event tells (amounts as wire text). */
interface OrderFacts {
  id: string;
  owner: string;
  conditionId: string;
  tokenId: string;
  side: OrderRow['side'];
  outcomeIndex: 0 | 1;
  price: string;
  originalSize: string;
  sizeMatched: string;
}

function factsOf(row: OrderRow): OrderFacts {
  const { id, owner, conditionId, tokenId, side, outcomeIndex } = row;
  return { id, owner, conditionId, tokenId, side, outcomeIndex, price: formatUnits(row.price), originalSize: formatUnits(row.originalSize), sizeMatched: formatUnits(row.sizeMatched) };
}

function send(s: UserSubscriber, event: Unsequenced<OrderEvent | TradeEvent>): void {
  s.seq += 1;
  s.sendJson({ ...event, seq: s.seq });
}
