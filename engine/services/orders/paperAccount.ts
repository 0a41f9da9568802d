import { formatUnits, MAX_BALANCE_UNITS, ONE } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL, type LedgerEntry } from '../../store/balanceRepo.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { OrderDeps } from './orderDeps.js';
import { type OrderIdentity, type TradableMarket } from './liveOrder.js';
import type { TradingState } from './tradingState.js';
import type { OrderCancels } from './orderCancels.js';

/** The paper account: collateral credits (welcome grant, faucet), the paper reset and redemption of resolved markets, all through the ledger. */
export class PaperAccount {
  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
    private readonly cancels: OrderCancels,
  ) {}

  /** Credits paper collateral (welcome grant on first key, operator faucet). Resolves once durable. */
  async creditCollateral(address: string, amount: bigint, reason: string): Promise<void> {
    if (amount <= 0n) throw new ApiError('invalid_field', `amount must be positive (got ${formatUnits(amount)}).`, { details: { field: 'amount', in: 'body', problem: 'must be positive' } });
    const addr = address.toLowerCase();
    if (this.s.sheet.balance(addr, COLLATERAL) + amount > MAX_BALANCE_UNITS) {
      throw new ApiError(
        'invalid_field',
        `amount ${formatUnits(amount)} would take ${addr}'s collateral above the maximum balance of ${formatUnits(MAX_BALANCE_UNITS)} (it holds ${formatUnits(this.s.sheet.balance(addr, COLLATERAL))}). Credit less.`,
        { details: { field: 'amount', in: 'body', problem: `exceeds the maximum balance ${formatUnits(MAX_BALANCE_UNITS)}` } },
      );
    }
    this.s.sheet.add(addr, COLLATERAL, amount);
    const entry: LedgerEntry = { time: this.ctx.clock.nowMs(), address: addr, asset: COLLATERAL, delta: amount, kind: 'credit', reason };
    await this.s.writer.submit([{ kind: 'ledger', entry }]);
  }

  /**
   * Paper reset (services/paper): cancels the owner's open orders, sets its collateral to `collateral`
   * and every share balance to zero, through the ledger like any other balance change. Each share row
   * is priced by `exitPrice` (the position's average cost), so the reset itself books no PnL.
   */
  async resetPaperAccount(identity: OrderIdentity, collateral: bigint, exitPrice: (asset: string) => bigint, reason: string): Promise<{ cancelled: string[] }> {
    const { canceled } = await this.cancels.cancelAll(identity);
    const addr = identity.address.toLowerCase();
    const now = this.ctx.clock.nowMs();
    const entries: LedgerEntry[] = [];
    for (const m of this.ctx.markets.list()) {
      for (const h of this.s.sheet.holdings(addr, m.tokenIds)) {
        const outcomeIndex = m.tokenIds.indexOf(h.asset);
        this.s.sheet.add(addr, h.asset, -h.amount);
        entries.push({ time: now, address: addr, asset: h.asset, delta: -h.amount, kind: 'credit', reason, conditionId: m.conditionId, outcomeIndex, side: h.amount > 0n ? 'SELL' : 'BUY', price: exitPrice(h.asset) });
      }
    }
    const delta = collateral - this.s.sheet.balance(addr, COLLATERAL);
    if (delta !== 0n) {
      this.s.sheet.add(addr, COLLATERAL, delta);
      entries.push({ time: now, address: addr, asset: COLLATERAL, delta, kind: 'credit', reason });
    }
    if (entries.length > 0) await this.s.writer.submit(entries.map((entry): OrderWrite => ({ kind: 'ledger', entry })));
    return { cancelled: canceled };
  }

  /**
   * POST /redeem (decisions §5): pays the resolved market's payout (1 per winning share) to the caller's
   * wallets (EOA, and its proxy / Safe when they hold shares) and zeroes their positions.
   */
  async redeem(identity: OrderIdentity, conditionId: string): Promise<RedeemResult> {
    const market = this.ctx.markets.byCondition(conditionId) as TradableMarket | undefined;
    if (!market) throw new ApiError('market_not_found', `No market has condition id ${conditionId}. List markets with GET /markets.`);
    if (market.winner === null) throw new ApiError('market_not_resolved', `Market ${market.conditionId} is not resolved yet; redeem after the operator resolves it.`);
    const winner = market.winner;
    if ([...this.s.live.values()].some((o) => o.conditionId === market.conditionId)) await this.cancels.cancelMarketOrders(market.conditionId, 'market resolved');
    const owner = identity.address.toLowerCase();
    const wallets = [owner, this.s.walletOf(1, owner), this.s.walletOf(2, owner)].filter((w, i, all): w is string => w !== undefined && all.indexOf(w) === i);
    const now = this.ctx.clock.nowMs();
    const entries: LedgerEntry[] = [];
    const positions: RedeemResult['positions'] = [];
    let total = 0n;
    for (const address of wallets) {
      let payout = 0n;
      for (const i of [0, 1] as const) {
        const asset = market.tokenIds[i];
        const size = this.s.sheet.balance(address, asset);
        if (size <= 0n) continue;
        const pays = i === winner ? size : 0n;
        payout += pays;
        positions.push({ address, asset, outcomeIndex: i, size: formatUnits(size), payout: formatUnits(pays) });
        this.s.sheet.add(address, asset, -size);
        entries.push({ time: now, address, asset, delta: -size, kind: 'redeem', reason: 'redeem', conditionId: market.conditionId, outcomeIndex: i, side: 'SELL', price: i === winner ? ONE : 0n });
      }
      if (payout > 0n) {
        this.s.sheet.add(address, COLLATERAL, payout);
        entries.push({ time: now, address, asset: COLLATERAL, delta: payout, kind: 'redeem', reason: 'redeem', conditionId: market.conditionId, outcomeIndex: winner, side: 'SELL', price: ONE });
      }
      total += payout;
    }
    if (positions.length === 0) {
      throw new ApiError('nothing_to_redeem', `${wallets.join(', ')} hold no shares of market ${market.conditionId}; nothing to redeem.`);
    }
    await this.s.writer.submit(entries.map((entry): OrderWrite => ({ kind: 'ledger', entry })));
    return { conditionId: market.conditionId, winningOutcomeIndex: winner, payout: formatUnits(total), positions };
  }
}

export interface RedeemResult {
  conditionId: string;
  winningOutcomeIndex: 0 | 1;
  payout: string;
  positions: Array<{ address: string; asset: string; outcomeIndex: 0 | 1; size: string; payout: string }>;
}
