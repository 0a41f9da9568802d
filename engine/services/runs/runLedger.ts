import { formatUnits, ONE } from '../../protocol/amounts.js';
import type { OrderSide } from '../../store/orderRepo.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { AccountReport, EquityPoint } from '../../protocol/agentTypes.js';

export type { AccountReport, EquityPoint, MarketLine } from '../../protocol/agentTypes.js';

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

interface Position {
  /** Signed shares: > 0 long, < 0 short. */
  qty: bigint;
  /** Signed cost basis of the open shares (same sign as qty), collateral. */
  cost: bigint;
}

interface Totals {
  realised: bigint;
  fees: bigint;
  trades: number;
  turnover: bigint;
}

interface Account extends Totals {
  positions: Map<string, Position>;
  peak: bigint;
  maxDrawdown: bigint;
  closes: number;
  wins: number;
  curve: Array<{ t: number; equity: bigint }>;
  markets: Map<string, Totals>;
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

  /** `marketOf` groups tokens into markets for the per-market lines (default: each token its own). */
  constructor(private readonly marketOf: (tokenId: string) => string = (t) => t) {}

  apply(f: Fill): void {
    const a = this.account(f.account);
    const key = this.marketOf(f.tokenId);
    const m = a.markets.get(key) ?? { realised: 0n, fees: 0n, trades: 0, turnover: 0n };
    a.markets.set(key, m);
    for (const x of [a, m]) {
      x.trades++;
      x.fees += f.fee;
      x.turnover += notional(f.price, f.size);
    }
    const p = a.positions.get(f.tokenId) ?? { qty: 0n, cost: 0n };
    a.positions.set(f.tokenId, p);
    const dir = f.side === 'BUY' ? 1n : -1n;
    let left = f.size;
    if (p.qty !== 0n && (p.qty > 0n) !== (dir > 0n)) {
      const s = p.qty > 0n ? 1n : -1n;
      const open = p.qty * s;
      const closing = left < open ? left : open;
      const basis = (p.cost * closing) / p.qty;
      const realised = s * (notional(f.price, closing) - basis);
      a.realised += realised;
      m.realised += realised;
      a.closes++;
      if (realised > 0n) a.wins++;
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

  /**
   * Records one point of every account's equity curve: with `t` (exchange ms, once per exchange minute)
   * a point of the curve; without (the end of an advance) only the drawdown's check.
   */
  sample(mark: Mark, t?: number): Map<string, bigint> {
    const eq = this.equity(mark);
    for (const [addr, e] of eq) {
      const a = this.accounts.get(addr)!;
      if (e > a.peak) a.peak = e;
      if (a.peak - e > a.maxDrawdown) a.maxDrawdown = a.peak - e;
      if (t !== undefined) a.curve.push({ t, equity: e });
    }
    return eq;
  }

  /** One account's equity curve, oldest first (empty for an account that never traded). */
  curve(address: string): EquityPoint[] {
    return (this.accounts.get(address.toLowerCase())?.curve ?? []).map((p) => ({ t: p.t, equity: formatUnits(p.equity) }));
  }

  /** Every account's line; `capital` (the starting paper balance) turns PnL into a return. */
  report(mark: Mark, capital?: bigint): AccountReport[] {
    return [...this.accounts.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([account, a]) => this.line(account, a, mark, capital));
  }

  /** One account's line (undefined for an account that never traded). */
  reportOf(address: string, mark: Mark, capital?: bigint): AccountReport | undefined {
    const key = address.toLowerCase();
    const a = this.accounts.get(key);
    return a && this.line(key, a, mark, capital);
  }

  private line(account: string, a: Account, mark: Mark, capital: bigint | undefined): AccountReport {
    const unrealised = this.unrealised(a, mark);
    const pnl = a.realised + unrealised - a.fees;
    return {
      account,
      pnl: formatUnits(pnl),
      realisedPnl: formatUnits(a.realised),
      unrealisedPnl: formatUnits(unrealised),
      fees: formatUnits(a.fees),
      trades: a.trades,
      turnover: formatUnits(a.turnover),
      maxDrawdown: formatUnits(a.maxDrawdown),
      return: capital && capital > 0n ? formatUnits((pnl * ONE) / capital) : null,
      sharpe: sharpeOf(a.curve.map((p) => p.equity)),
      hitRate: a.closes === 0 ? null : round4(a.wins / a.closes),
      closingFills: a.closes,
      winningFills: a.wins,
      equityPoints: a.curve.length,
      positions: [...a.positions.entries()]
        .filter(([, p]) => p.qty !== 0n)
        .map(([tokenId, p]) => {
          const m = mark(tokenId);
          return { tokenId, size: formatUnits(p.qty), averagePrice: formatUnits((p.cost * ONE) / p.qty), mark: m === undefined ? null : formatUnits(m) };
        }),
      markets: [...a.markets.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([market, t]) => {
          const u = this.unrealised(a, mark, market);
          return { market, pnl: formatUnits(t.realised + u - t.fees), realisedPnl: formatUnits(t.realised), unrealisedPnl: formatUnits(u), fees: formatUnits(t.fees), trades: t.trades, turnover: formatUnits(t.turnover) };
        }),
    };
  }

  /** Unrealised PnL of the open positions (of one market only, when given). */
  private unrealised(a: Account, mark: Mark, market?: string): bigint {
    let u = 0n;
    for (const [token, p] of a.positions) {
      if (p.qty === 0n || (market !== undefined && this.marketOf(token) !== market)) continue;
      const m = mark(token);
      if (m !== undefined) u += notional(m, p.qty) - p.cost;
    }
    return u;
  }

  private account(address: string): Account {
    const key = address.toLowerCase();
    let a = this.accounts.get(key);
    if (!a) {
      a = { positions: new Map(), realised: 0n, fees: 0n, trades: 0, turnover: 0n, peak: 0n, maxDrawdown: 0n, closes: 0, wins: 0, curve: [], markets: new Map() };
      this.accounts.set(key, a);
    }
    return a;
  }
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/**
 * Mean over sample standard deviation of the curve's successive changes. A ratio, so a float is fine
 * here (the money itself stays bigint); the changes are in micro-units, well inside a double's exact range.
 */
export function sharpeOf(equity: bigint[]): number | null {
  if (equity.length < 3) return null;
  const d: number[] = [];
  for (let i = 1; i < equity.length; i++) d.push(Number(equity[i]! - equity[i - 1]!));
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  const variance = d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1);
  return variance === 0 ? null : round4(mean / Math.sqrt(variance));
}
