import { z } from 'zod';
import type { OrderType, Side } from '../../../engine/protocol/eip712.js';
import { previewTicket } from './ticketMath.js';
import { oversellIssue, type Sellable } from './sellable.js';

/** What the ticket's inputs hold (text as typed; the order is derived from it). */
export interface TicketValues {
  side: Side;
  mode: 'limit' | 'market';
  orderType: OrderType;
  price: string;
  size: string;
  /** Market buys: dollars to spend. */
  amount: string;
  /** GTD lifetime in minutes. */
  gtdMinutes: string;
  postOnly: boolean;
}

export const TICKET_DEFAULTS: TicketValues = { side: 'BUY', mode: 'limit', orderType: 'GTC', price: '', size: '', amount: '', gtdMinutes: '60', postOnly: false };

/** The rules the ticket checks before anything is signed, all from the selected market. */
export interface TicketRules {
  tickSize: string;
  minOrderSize: string;
  /**
   * What will be signed for these inputs: the typed price and size for a limit order; for a market
   * order the worst price the amount reaches on the book and what it buys (undefined: nothing to take).
   */
  effective: (v: TicketValues) => { price: string; size: string } | undefined;
  /** The selected outcome's shares the trader can sell (undefined: unknown, the exchange judges). */
  sellable?: Sellable;
}

const decimal = /^\d*(?:\.\d*)?$/;

/**
 * The ticket as a zod schema whose rules come from the market: price on the tick and within
 * [tick, 1 − tick], size at least the market's minimum with at most 2 decimals (previewTicket, the
 * same checks the exchange makes), a market buy's amount, and a GTD lifetime long enough that the
 * signed expiry clears the exchange's 60 s buffer. Each issue sits on the field to fix.
 */
export function ticketSchema(rules: TicketRules) {
  return z
    .object({
      side: z.enum(['BUY', 'SELL']),
      mode: z.enum(['limit', 'market']),
      orderType: z.enum(['GTC', 'GTD', 'FOK', 'FAK']),
      price: z.string(),
      size: z.string(),
      amount: z.string(),
      gtdMinutes: z.string(),
      postOnly: z.boolean(),
    })
    .superRefine((v, ctx) => {
      if (v.mode === 'market' && v.orderType !== 'FOK' && v.orderType !== 'FAK') ctx.addIssue({ code: 'custom', path: ['orderType'], message: 'A market order is FOK or FAK.' });
      if (v.mode === 'market' && v.side === 'BUY') {
        const a = v.amount.trim();
        if (a === '') return void ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Enter the dollars to spend.' });
        if (!decimal.test(a) || !(Number(a) > 0)) return void ctx.addIssue({ code: 'custom', path: ['amount'], message: 'The amount is a positive number of dollars.' });
      }
      const order = rules.effective(v);
      if (!order) {
        ctx.addIssue({ code: 'custom', path: [v.side === 'BUY' ? 'amount' : 'size'], message: 'Nothing on the book to take.' });
      } else {
        const p = previewTicket({ side: v.side, price: order.price, size: order.size, tickSize: rules.tickSize, minOrderSize: rules.minOrderSize });
        // In market mode the price is the book's, so its issue belongs to what the trader typed.
        if (p.priceError) ctx.addIssue({ code: 'custom', path: [v.mode === 'market' ? (v.side === 'BUY' ? 'amount' : 'size') : 'price'], message: p.priceError });
        if (p.sizeError) ctx.addIssue({ code: 'custom', path: [v.mode === 'market' && v.side === 'BUY' ? 'amount' : 'size'], message: p.sizeError });
        // A SELL is backed by shares held, not by collateral: say so in shares (issue 23, item 9).
        const oversell = v.side === 'SELL' && rules.sellable ? oversellIssue(rules.sellable, order.size) : undefined;
        if (oversell) ctx.addIssue({ code: 'custom', path: ['size'], message: oversell });
      }
      if (v.orderType === 'GTD') {
        // The order is signed with expiration = now + lifetime + 60 (gtdExpiration); the exchange refuses
        // one within 60 s of now, so the lifetime itself must be positive: at least a minute here.
        const minutes = Number(v.gtdMinutes);
        if (v.gtdMinutes.trim() === '' || !Number.isFinite(minutes) || minutes < 1) ctx.addIssue({ code: 'custom', path: ['gtdMinutes'], message: 'Set a GTD lifetime of at least a minute.' });
      }
    });
}

/** The first issue per field, as the ticket shows them. */
export function ticketIssues(rules: TicketRules, v: TicketValues): Partial<Record<keyof TicketValues, string>> {
  const r = ticketSchema(rules).safeParse(v);
  const out: Partial<Record<keyof TicketValues, string>> = {};
  if (!r.success) for (const i of r.error.issues) out[i.path[0] as keyof TicketValues] ??= i.message;
  return out;
}
