import { COLLATERAL } from '../../store/balanceRepo.js';

/**
 * In-memory paper balances and the reservations of open orders, per (address, asset). The balances
 * mirror the balances table (loaded at startup, changed together with every write); reservations are
 * derived from the open orders. available = balance − reserved (decisions §3).
 */
export class BalanceSheet {
  private readonly balances = new Map<string, bigint>();
  private readonly reservations = new Map<string, bigint>();

  private static key(address: string, asset: string): string {
    return address + '|' + asset;
  }

  balance(address: string, asset: string): bigint {
    return this.balances.get(BalanceSheet.key(address, asset)) ?? 0n;
  }

  reserved(address: string, asset: string): bigint {
    return this.reservations.get(BalanceSheet.key(address, asset)) ?? 0n;
  }

  available(address: string, asset: string): bigint {
    return this.balance(address, asset) - this.reserved(address, asset);
  }

  add(address: string, asset: string, delta: bigint): void {
    if (delta === 0n) return;
    const k = BalanceSheet.key(address, asset);
    const v = (this.balances.get(k) ?? 0n) + delta;
    if (v === 0n) this.balances.delete(k);
    else this.balances.set(k, v);
  }

  reserve(address: string, asset: string, delta: bigint): void {
    if (delta === 0n) return;
    const k = BalanceSheet.key(address, asset);
    const v = (this.reservations.get(k) ?? 0n) + delta;
    if (v === 0n) this.reservations.delete(k);
    else this.reservations.set(k, v);
  }

  /** Share balances of one address for the given tokens (redemption). */
  holdings(address: string, tokenIds: readonly string[]): Array<{ asset: string; amount: bigint }> {
    return tokenIds.map((asset) => ({ asset, amount: this.balance(address, asset) })).filter((h) => h.amount !== 0n);
  }

  static readonly COLLATERAL = COLLATERAL;
}
