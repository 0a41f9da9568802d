import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { formatUnits, ONE } from '../protocol/amounts.js';
import { quoteOrder } from '../services/agents/orderQuote.js';
import type { Market } from '../services/markets/marketService.js';
import { decimal, defineTool, ToolRefusal, units, type ToolDeps } from './toolKit.js';
import { marketState, tokenOf } from './marketTools.js';

const side = z.enum(['BUY', 'SELL']);
const tokenId = z.string().min(1).describe('Token id of the outcome to trade (get_market lists them)');

function onTick(m: Market, price: bigint, field: string): bigint {
  if (price <= 0n || price >= ONE || price % m.tickSize !== 0n) {
    throw new ToolRefusal(`${field} ${formatUnits(price)} is not a price of this market: use a multiple of the tick ${formatUnits(m.tickSize)} strictly between 0 and 1.`);
  }
  return price;
}

function tradable(deps: ToolDeps, m: Market): void {
  const state = marketState(deps, m);
  if (state !== 'open') throw new ToolRefusal(`The market "${m.question}" is ${state} and takes no orders. Pick an open market (list_markets with state "open").`);
}

/** Quotes, placement (signed by the engine with the agent's wallet, through the order service like any user's order), cancels, open orders. */
export function registerTradingTools(server: McpServer, deps: ToolDeps): void {
  const { ctx, agent } = deps;
  const identity = { address: agent.info.address };

  defineTool(server, deps, 'quote_order', {
    title: 'Quote an order',
    description: 'What an order would fill right now against the book, without placing it: fillable size, average and worst price, fees, slippage from the midpoint, maximum loss.',
    input: { token_id: tokenId, side, size: decimal('size').describe('Shares'), price: decimal('price').optional().describe('Limit price; omitted = any price') },
  }, ({ token_id, side: s, size, price }) => {
    const { market, outcomeIndex } = tokenOf(deps, token_id);
    const q = quoteOrder(ctx.orders.book(market.conditionId), { outcomeIndex, side: s, size: units(size, 'size'), ...(price === undefined ? {} : { limit: units(price, 'price') }), feeSchedule: market.feeSchedule });
    return { summary: `${s} ${q.fillableSize} of ${q.requestedSize} fill now at avg ${q.averagePrice ?? '—'} (worst ${q.worstPrice ?? '—'}), fees ${q.fees}, max loss ${q.maxLoss}.`, data: { tokenId: token_id, ...q } };
  });

  defineTool(server, deps, 'place_order', {
    title: 'Place an order',
    description:
      'Places a limit order (GTC, or GTD with expires_at) or a marketable one (FOK: all or nothing, FAK: fill what you can, cancel the rest; price omitted = the worst price needed to fill the size now). The engine signs it with this agent\'s paper wallet. dry_run: true checks and quotes without placing.',
    write: true,
    input: {
      token_id: tokenId,
      side,
      size: decimal('size').describe('Shares'),
      price: decimal('price').optional().describe('Limit price per share (required for GTC and GTD)'),
      type: z.enum(['GTC', 'GTD', 'FOK', 'FAK']).default('GTC'),
      expires_at: z.number().int().positive().optional().describe('GTD only: unix seconds (exchange time) when the order expires'),
      post_only: z.boolean().optional().describe('GTC/GTD only: refuse the order if it would trade at once'),
      dry_run: z.boolean().default(false),
    },
  }, async (a) => {
    const { market, outcomeIndex } = tokenOf(deps, a.token_id);
    tradable(deps, market);
    const size = units(a.size, 'size');
    if (size < market.minOrderSize) throw new ToolRefusal(`size ${a.size} is below this market's minimum order size ${formatUnits(market.minOrderSize)}.`);
    const book = ctx.orders.book(market.conditionId);
    let price: bigint;
    if (a.price !== undefined) price = onTick(market, units(a.price, 'price'), 'price');
    else if (a.type === 'FOK' || a.type === 'FAK') {
      const q = quoteOrder(book, { outcomeIndex, side: a.side, size, feeSchedule: market.feeSchedule });
      if (q.worstPrice === null) throw new ToolRefusal(`No ${a.side === 'BUY' ? 'asks' : 'bids'} rest on this book, so a market order cannot fill. Place a limit order (GTC with a price) or try later.`);
      price = units(q.worstPrice, 'price');
    } else throw new ToolRefusal(`A ${a.type} order needs a price. Give price, or use type FOK/FAK for a market order.`);
    if (a.type === 'GTD' && a.expires_at === undefined) throw new ToolRefusal('A GTD order needs expires_at (unix seconds, exchange time; get_clock tells the time now).');
    if (a.type !== 'GTD' && a.expires_at !== undefined) throw new ToolRefusal('expires_at applies to GTD orders only: set type "GTD" or leave expires_at out.');

    const notional = (price * size) / ONE;
    const maxNotional = units(agent.info.limits.maxOrderNotional, 'maxOrderNotional');
    if (notional > maxNotional) throw new ToolRefusal(`limit_exceeded: this order's notional ${formatUnits(notional)} is above this agent's maxOrderNotional ${agent.info.limits.maxOrderNotional}. Place a smaller order.`);
    if (a.type === 'GTC' || a.type === 'GTD') {
      const open = ctx.orders.listOpen(identity, {}).data.length;
      if (open >= agent.info.limits.maxOpenOrders) throw new ToolRefusal(`limit_exceeded: this agent has ${open} open orders, its maxOpenOrders is ${agent.info.limits.maxOpenOrders}. Cancel some first (cancel_order, cancel_all).`);
    }
    const quote = quoteOrder(book, { outcomeIndex, side: a.side, size, limit: price, feeSchedule: market.feeSchedule });
    const order = { tokenId: a.token_id, side: a.side, size: formatUnits(size), price: formatUnits(price), type: a.type, ...(a.expires_at === undefined ? {} : { expiresAt: a.expires_at }) };
    if (a.dry_run) return { summary: `dry run: ${a.side} ${order.size} @ ${order.price} ${a.type} passes the checks; ${quote.fillableSize} would fill now at avg ${quote.averagePrice ?? '—'}. Nothing was placed.`, data: { dryRun: true, order, quote } };

    const wall = (ctx.wallClock ?? ctx.clock).nowMs();
    if (!agent.window.take(wall, agent.info.limits.maxOrdersPerMinute)) {
      throw new ToolRefusal(`limit_exceeded: this agent placed ${agent.info.limits.maxOrdersPerMinute} orders in the last minute (maxOrdersPerMinute). Retry in ${agent.window.retryAfter(wall)} s.`);
    }
    // A stepped or fast run draws salts from its seed, so a replayed script signs the same orders.
    const salt = BigInt('0x' + (ctx.ids ? ctx.ids.bytes(`agent-salt:${agent.info.id}`, 6) : randomBytes(6)).toString('hex')).toString();
    const body = agent.signer.order(market, outcomeIndex, a.side, price, size, salt, market.feeRateBps, String(a.expires_at ?? 0));
    body.orderType = a.type;
    if (a.post_only) body.postOnly = true;
    const r = await ctx.orders.place(identity, body);
    if (!r.success) throw new ToolRefusal(`${r.error_code ?? 'rejected'}: ${r.error_msg}`);
    const rec = ctx.orders.get(r.order_id!);
    const matched = rec.sizeMatched;
    return { summary: `${a.type} ${a.side} ${order.size} @ ${order.price} ${r.status}: ${matched} matched, order ${r.order_id}.`, data: { orderId: r.order_id, status: r.status, sizeMatched: matched, order, quote } };
  });

  defineTool(server, deps, 'cancel_order', {
    title: 'Cancel an order',
    description: 'Cancels one of this agent\'s open orders.',
    write: true,
    input: { order_id: z.string().min(1) },
  }, async ({ order_id }) => {
    const r = await ctx.orders.cancel(identity, [order_id]);
    if (r.canceled.length === 0) throw new ToolRefusal(`order ${order_id} was not cancelled: ${Object.values(r.not_canceled)[0] ?? 'not found'}. list_open_orders shows the orders that can be.`);
    return { summary: `cancelled ${order_id}.`, data: { canceled: r.canceled } };
  });

  defineTool(server, deps, 'cancel_all', {
    title: 'Cancel all orders',
    description: 'Cancels every open order of this agent (optionally of one market).',
    write: true,
    input: { market: z.string().optional().describe('Condition id: only this market\'s orders') },
  }, async ({ market }) => {
    const r = market === undefined ? await ctx.orders.cancelAll(identity) : await ctx.orders.cancelMarket(identity, { market });
    return { summary: `cancelled ${r.canceled.length} order(s).`, data: { canceled: r.canceled } };
  });

  defineTool(server, deps, 'get_order', {
    title: 'One order',
    description: "One of this agent's orders by id, in any state: size, matched size, price, type, status, trades.",
    input: { order_id: z.string().min(1) },
  }, ({ order_id }) => {
    let rec;
    try {
      rec = ctx.orders.get(order_id);
    } catch {
      rec = undefined;
    }
    // Another account's order is as unknown to this agent as a missing one.
    if (!rec || rec.makerAddress.toLowerCase() !== agent.info.address) throw new ToolRefusal(`This agent has no order ${JSON.stringify(order_id)}. list_open_orders and get_trade_history show its orders.`);
    return { summary: `${rec.side} ${rec.originalSize} @ ${rec.price} ${rec.status}, ${rec.sizeMatched} matched.`, data: rec as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'list_open_orders', {
    title: 'Open orders',
    description: 'This agent\'s orders resting on the books (optionally of one market).',
    input: { market: z.string().optional().describe('Condition id') },
  }, ({ market }) => {
    const orders = ctx.orders.listOpen(identity, market === undefined ? {} : { market }).data;
    return { summary: `${orders.length} open order(s).`, data: { orders: orders as unknown as Record<string, unknown>[] } };
  });
}
