import { formatUnits } from '../../protocol/amounts.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { PaperRepo } from '../../store/paperRepo.js';
import type { Infra } from '../infra.js';
import type { DataService } from '../data/dataService.js';
import type { OrderIdentity, OrderService } from '../orders/orderService.js';

/** One position as the session ended (the data API's numbers, as the terminal showed them). */
export interface ArchivedPosition {
  asset: string;
  conditionId: string;
  title: string;
  outcome: string;
  size: number;
  avgPrice: number;
  curPrice: number;
  currentValue: number;
  cashPnl: number;
  realizedPnl: number;
}

export interface PaperSessionSummary {
  /** Collateral balance at the end, 6-dp decimal text. */
  collateral: string;
  /** What open orders reserved at the end (released by the reset's cancels), decimal text. */
  reserved: string;
  positions: ArchivedPosition[];
  /** Realised PnL booked during this session (lifetime realised now minus at the previous reset). */
  realizedPnl: number;
  /** Σ cashPnl of the positions still open at the end. */
  unrealizedPnl: number;
  /** Lifetime realised PnL at the end, so the next session's figure can be told apart. */
  lifetimeRealizedPnl: number;
  tradeCount: number;
  cancelledOrders: number;
  startingBalance: string;
}

export interface PaperSession extends PaperSessionSummary {
  id: number;
  /** Unix ms. */
  startedAt: number;
  endedAt: number;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** What the paper service uses: positions from the data service, balances and the reset from the order service. */
export type PaperDeps = Pick<Infra, 'clock' | 'config' | 'db'> & {
  readonly data: Pick<DataService, 'positions' | 'closedPositions'>;
  readonly orders: Pick<OrderService, 'balanceOf' | 'resetPaperAccount'>;
};

/**
 * Paper accounts (issue 14 scope 1): reset a wallet to the starting balance, archiving the session it
 * ends, and list the archive. Balances change only through the order service's ledger path.
 */
export class PaperService {
  private readonly repo: PaperRepo;

  constructor(private readonly ctx: PaperDeps) {
    this.repo = new PaperRepo(ctx.db);
  }

  get startingBalance(): bigint {
    return this.ctx.config.initialCollateral;
  }

  async reset(identity: OrderIdentity): Promise<{ session: PaperSession; balance: string; cancelled: string[] }> {
    const address = identity.address.toLowerCase();
    const now = this.ctx.clock.nowMs();
    const startedAt = this.repo.sessionStart(address) ?? now;
    const open = this.ctx.data.positions({ user: address, sizeThreshold: '0', limit: '500' });
    const closed = this.ctx.data.closedPositions({ user: address, limit: '50' });
    const openAssets = new Set(open.map((p) => p.asset));
    const lifetimeRealizedPnl = round6(open.reduce((s, p) => s + p.realizedPnl, 0) + closed.filter((p) => !openAssets.has(p.asset)).reduce((s, p) => s + p.realizedPnl, 0));
    const previous = this.repo.list(address, 1)[0];
    const before = previous ? (JSON.parse(previous.summary) as PaperSessionSummary).lifetimeRealizedPnl : 0;
    const money = this.ctx.orders.balanceOf(address, COLLATERAL);
    const positions: ArchivedPosition[] = open
      .filter((p) => p.size !== 0)
      .map((p) => ({ asset: p.asset, conditionId: p.conditionId, title: p.title, outcome: p.outcome, size: p.size, avgPrice: p.avgPrice, curPrice: p.curPrice, currentValue: p.currentValue, cashPnl: p.cashPnl, realizedPnl: p.realizedPnl }));
    const avg = new Map(positions.map((p) => [p.asset, BigInt(Math.round(p.avgPrice * 1e6))]));

    const { cancelled } = await this.ctx.orders.resetPaperAccount(identity, this.startingBalance, (asset) => avg.get(asset) ?? 0n, 'paper reset');
    const summary: PaperSessionSummary = {
      collateral: formatUnits(money.balance),
      reserved: formatUnits(money.reserved),
      positions,
      realizedPnl: round6(lifetimeRealizedPnl - before),
      unrealizedPnl: round6(positions.reduce((s, p) => s + p.cashPnl, 0)),
      lifetimeRealizedPnl,
      tradeCount: this.repo.tradeCount(address, startedAt),
      cancelledOrders: cancelled.length,
      startingBalance: formatUnits(this.startingBalance),
    };
    const id = this.repo.insert({ address, startedAt, endedAt: now, summary: JSON.stringify(summary) });
    return { session: { id, startedAt, endedAt: now, ...summary }, balance: formatUnits(this.startingBalance), cancelled };
  }

  /** Archived sessions of a wallet, newest first, and where its current session began. */
  sessions(identity: OrderIdentity): { startingBalance: string; currentSessionStartedAt: number | null; sessions: PaperSession[] } {
    const address = identity.address.toLowerCase();
    return {
      startingBalance: formatUnits(this.startingBalance),
      currentSessionStartedAt: this.repo.sessionStart(address) ?? null,
      sessions: this.repo.list(address, 100).map((r) => ({ id: r.id, startedAt: r.startedAt, endedAt: r.endedAt, ...(JSON.parse(r.summary) as PaperSessionSummary) })),
    };
  }
}
