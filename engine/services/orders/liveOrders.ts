import type { LiveOrder } from './liveOrder.js';
import { rejection, type Rejection } from './placementResult.js';

/**
 * Resting orders one account (the API key's address) may hold. Every resting order is work for each
 * taker that sweeps it: 20,000 resting orders of one account took 18 s to place and one FAK sweeping
 * them 2 s, delaying everyone's orders 0.6 s. The simulated participants hold a few dozen each, and the
 * HTTP bench a few thousand per key.
 */
export const MAX_OPEN_ORDERS = 10_000;

/** The live (resting) orders by id, counted per owning account so placement can refuse one past the cap. */
export class LiveOrders extends Map<string, LiveOrder> {
  private readonly perOwner = new Map<string, number>();

  constructor(private readonly maxPerOwner: number = MAX_OPEN_ORDERS) {
    super();
  }

  override set(id: string, o: LiveOrder): this {
    if (!super.has(id)) this.perOwner.set(o.owner, (this.perOwner.get(o.owner) ?? 0) + 1);
    return super.set(id, o);
  }

  override delete(id: string): boolean {
    const o = super.get(id);
    if (!o) return false;
    const n = (this.perOwner.get(o.owner) ?? 1) - 1;
    if (n > 0) this.perOwner.set(o.owner, n);
    else this.perOwner.delete(o.owner);
    return super.delete(id);
  }

  override clear(): void {
    this.perOwner.clear();
    super.clear();
  }

  /** Resting orders of an account (its address in lower case). */
  openOf(owner: string): number {
    return this.perOwner.get(owner) ?? 0;
  }

  /**
   * The refusal of an order that would rest past the account's cap; `wouldRest` is asked only at the
   * cap (an order that fills whole adds nothing to the book, so it is always taken).
   */
  capRejection(owner: string, wouldRest: () => boolean): Rejection | undefined {
    const open = this.openOf(owner);
    if (open < this.maxPerOwner || !wouldRest()) return undefined;
    return rejection(
      'INVALID_ORDER_TOO_MANY_OPEN_ORDERS',
      `too many open orders: ${owner} has ${open} orders resting, the most one account may have (${this.maxPerOwner}). Cancel some (DELETE /orders, DELETE /cancel-all) or let them fill before placing more; an order that fills completely on arrival is still accepted.`,
    );
  }
}
