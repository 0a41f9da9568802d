import { formatUnits, ONE } from '../../protocol/amounts.js';
import type { OrderSide } from '../../store/orderRepo.js';
import type { TradeRow } from '../../store/tradeRepo.js';

/** One side of a trade as its account saw it. Amounts are 6-dp micro-units. */
export interface Fill {
  account: string;
  tokenId: string;
  side: OrderSide;
  price: bigint;
  size: bigint;
  /** Net fee of this account on the fill: the taker's fee, minus the maker's rebate (decisions §10) for the maker. */
  fee: bigint;
}

/** A token's mark (micro-units per share), or undefined when nothing marks it (the position is then held at cost). */
export type Mark = (tokenId: string) => bigint | undefined;

export interface AccountReport {
  account: string;
  /** realised + unrealised − fees, collateral. */
  pnl: string;
  realisedPnl: string;
  unrealisedPnl: string;
  /** Fees paid less maker rebates earned (negative when rebates exceed fees). */
  fees: string;
  trades: number;
  /** Σ price × size of every fill, collateral. */
  turnover: string;
  /** The largest fall of the equity curve (net PnL sampled once per exchange minute and at the end) from its running peak. */
  maxDrawdown: string;
  positions: Array<{ tokenId: string; size: string; averagePrice: string; mark: string | null }>;
}

interface Position {
  /** Signed shares: > 0 long, < 0 short. */
  qty: bigint;
  /** Signed cost basis of the open shares (same sign as qty), collateral. */
  cost: bigint;
}

interface Account {
  positions: Map<string, Position>;
  realised: bigint;
  fees: bigint;
  trades: number;
  turnover: bigint;
  peak: bigint;
  maxDrawdown: bigint;
}

/** The two fills of one trade row: the taker's (who pays the fee) and the maker's (who may earn a rebate). */
export function fillsOf(t: TradeRow): [Fill, Fill] {
  return [
    { account: t.takerAddress, tokenId: t.takerAssetId, side: t.takerSide, price: t.price, size: t.size, fee: t.fee },
    { account: t.makerAddress, tokenId: t.makerAssetId, side: t.makerSide, price: t.makerPrice, size: t.size, fee: -t.makerRebate },
  ];
}

const notional = (price: bigint, size: bigint): bigint => (price * size) / ONE;

/**
 * Per-account PnL of a run by average cost: a fill that adds to a position adds its notional to the
 * cost basis; one that reduces it realises (price − average cost) × shares on the part it closes, and
 * a fill larger than the position opens the rest the other way. Unrealised PnL marks what is open.
 */
export class RunLedger {
  private readonly accounts = new Map<string, Account>();

  apply(f: Fill): void {
    const a = this.account(f.account);
    a.trades++;
    a.fees += f.fee;
    a.turnover += notional(f.price, f.size);
    const p = a.positions.get(f.tokenId) ?? { qty: 0n, cost: 0n };
    a.positions.set(f.tokenId, p);
    const dir = f.side === 'BUY' ? 1n : -1n;
    let left = f.size;
    if (p.qty !== 0n && (p.qty > 0n) !== (dir > 0n)) {
      const s = p.qty > 0n ? 1n : -1n;
      const open = p.qty * s;
      const closing = left < open ? left : open;
      const basis = (p.cost * closing) / p.qty;
      a.realised += s * (notional(f.price, closing) - basis);
      p.qty -= s * closing;
      p.cost -= s * basis;
      if (p.qty === 0n) p.cost = 0n;
      left -= closing;
    }
    if (left > 0n) {
      p.qty += dir * left;
      p.cost += dir * notional(f.price, left);
    }
  }

  /** Net PnL of every account now: realised + unrealised − fees. */
  equity(mark: Mark): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const [addr, a] of this.accounts) out.set(addr, a.realised + this.unrealised(a, mark) - a.fees);
    return out;
  }

  /** Records one point of every account's equity curve (once per exchange minute, and at the end). */
  sample(mark: Mark): Map<string, bigint> {
    const eq = this.equity(mark);
    for (const [addr, e] of eq) {
      const a = this.accounts.get(addr)!;
      if (e > a.peak) a.peak = e;
      if (a.peak - e > a.maxDrawdown) a.maxDrawdown = a.peak - e;
    }
    return eq;
  }

  report(mark: Mark): AccountReport[] {
    return [...this.accounts.entries()]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([account, a]) => {
        const unrealised = this.unrealised(a, mark);
        return {
          account,
          pnl: formatUnits(a.realised + unrealised - a.fees),
          realisedPnl: formatUnits(a.realised),
          unrealisedPnl: formatUnits(unrealised),
          fees: formatUnits(a.fees),
          trades: a.trades,
          turnover: formatUnits(a.turnover),
          maxDrawdown: formatUnits(a.maxDrawdown),
          positions: [...a.positions.entries()]
            .filter(([, p]) => p.qty !== 0n)
            .map(([tokenId, p]) => {
              const m = mark(tokenId);
              return { tokenId, size: formatUnits(p.qty), averagePrice: formatUnits((p.cost * ONE) / p.qty), mark: m === undefined ? null : formatUnits(m) };
            }),
        };
      });
  }

  private unrealised(a: Account, mark: Mark): bigint {
    let u = 0n;
    for (const [token, p] of a.positions) {
      if (p.qty === 0n) continue;
      const m = mark(token);
      if (m !== undefined) u += notional(m, p.qty) - p.cost;
    }
    return u;
  }

  private account(address: string): Account {
    const key = address.toLowerCase();
    let a = this.accounts.get(key);
    if (!a) {
      a = { positions: new Map(), realised: 0n, fees: 0n, trades: 0, turnover: 0n, peak: 0n, maxDrawdown: 0n };
      this.accounts.set(key, a);
    }
    return a;
  }
}
