import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatUnits, MAX_BOOK_UNITS, parseUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import { CreateMarketBody, FeeRateBody, FaucetBody, FaucetResponse, PauseBody, PauseResponse, ResolveBody, ResolveParams, StatsResponse, TickSizeBody } from '../../protocol/schemas/admin.js';
import { PublicMarketSchema } from '../../protocol/schemas/markets.js';
import type { EngineContext } from '../engineContext.js';
import { operatorGuard } from './operatorGuard.js';
import { emptyBodyIsObject } from './emptyBodyIsObject.js';

const TAG = ['operator'];
const SECURITY = [{ operatorToken: [] }];

/** Operator routes (decisions §7): market creation, circuit breakers, resolution, paper-collateral faucet. */
export function adminRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const data = ctx.marketData;

  const requireOperator = operatorGuard(ctx);
  // Money fields must be decimal STRINGS (a JSON number is a float); checked before ajv would coerce them.
  const decimalStrings =
    (...fields: string[]) =>
    async (req: FastifyRequest): Promise<void> => {
      const body = req.body as Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object') return;
      for (const f of fields) {
        if (f in body && typeof body[f] !== 'string') {
          throw new ApiError('invalid_field', `${f} must be a decimal string such as "250.5", not a JSON ${typeof body[f]}: amounts are never floats.`, { details: { field: f } });
        }
      }
    };
  // feeRateBps is a JSON integer; a string such as "100" is refused rather than coerced.
  const jsonNumber =
    (field: string) =>
    async (req: FastifyRequest): Promise<void> => {
      const body = req.body as Record<string, unknown> | undefined;
      if (body && typeof body === 'object' && field in body && typeof body[field] !== 'number') {
        throw new ApiError('invalid_field', `${field} must be a JSON integer such as 100 (basis points), not a JSON ${typeof body[field]}.`, { details: { field } });
      }
    };
  const base = { onRequest: requireOperator };

  app.get('/admin/stats', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Counters of the order path: writer thread batches, signature-recovery batches, main-connection group commits', response: { 200: StatsResponse } } }, async () => ({
    ...ctx.orders.pipelineStats(),
    writeBatcher: { ...ctx.writes.stats },
  }));

  app.post('/admin/markets', { ...base, preValidation: [decimalStrings('tickSize', 'minOrderSize'), jsonNumber('feeRateBps')], schema: { tags: TAG, security: SECURITY, summary: 'Create a binary market', body: CreateMarketBody, response: { 201: PublicMarketSchema } } }, async (req, reply) => {
    const b = req.body as { question: string; description?: string; outcomes?: string[]; tickSize: string; minOrderSize: string; negRisk?: boolean; endDate?: string | null; eventId?: number; feeRateBps?: number; feeSchedule?: unknown };
    const tickSize = tickSizeUnits(b.tickSize);
    const minOrderSize = parseUnits(b.minOrderSize);
    if (minOrderSize === undefined || minOrderSize === 0n) {
      throw new ApiError('invalid_field', `minOrderSize must be a positive decimal string of shares with at most 6 decimals, e.g. "5"; got ${JSON.stringify(b.minOrderSize)}.`, { details: { field: 'minOrderSize' } });
    }
    if (minOrderSize > MAX_BOOK_UNITS) {
      throw new ApiError('invalid_field', `minOrderSize must be at most ${formatUnits(MAX_BOOK_UNITS)} shares (the largest order the book holds); got ${b.minOrderSize}.`, { details: { field: 'minOrderSize' } });
    }
    if (b.outcomes !== undefined && b.outcomes.length !== 2) {
      throw new ApiError('invalid_field', 'outcomes must hold exactly two labels, e.g. ["Yes","No"]; markets are binary.', { details: { field: 'outcomes' } });
    }
    const market = await ctx.markets.create({
      question: b.question,
      ...(b.description !== undefined ? { description: b.description } : {}),
      ...(b.outcomes !== undefined ? { outcomes: [b.outcomes[0]!, b.outcomes[1]!] as [string, string] } : {}),
      tickSize,
      minOrderSize,
      negRisk: b.negRisk ?? false,
      endDate: b.endDate ?? null,
      ...(b.eventId !== undefined ? { eventId: b.eventId } : {}),
      ...(b.feeRateBps !== undefined ? { feeRateBps: b.feeRateBps } : {}),
      ...(b.feeSchedule !== undefined ? { feeSchedule: b.feeSchedule } : {}),
    });
    return reply.code(201).send(data.publicMarket(market));
  });

  const pauseState = (conditionId?: string) => ({
    system_paused: ctx.markets.isSystemPaused(),
    ...(conditionId !== undefined ? { condition_id: conditionId.toLowerCase(), condition_paused: ctx.markets.byCondition(conditionId)?.paused ?? false } : {}),
  });

  for (const action of ['pause', 'resume'] as const) {
    app.post(
      `/admin/${action}`,
      {
        ...base,
        preValidation: emptyBodyIsObject,
        schema: { tags: TAG, security: SECURITY, summary: `${action === 'pause' ? 'Engage' : 'Release'} the global breaker (no conditionId) or one market's`, body: PauseBody, response: { 200: PauseResponse } },
      },
      async (req) => {
        const { conditionId } = req.body as { conditionId?: string };
        if (conditionId !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(conditionId)) {
          throw new ApiError('invalid_field', `conditionId must be 0x followed by 64 hex digits (see GET /markets); got ${JSON.stringify(conditionId)}. Omit it for the global breaker.`, { details: { field: 'conditionId' } });
        }
        if (action === 'pause') await ctx.markets.pause(conditionId);
        else await ctx.markets.resume(conditionId);
        return pauseState(conditionId);
      },
    );
  }

  app.get('/admin/pause', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Breaker state: global flag and paused markets' } }, async () => ({
    system_paused: ctx.markets.isSystemPaused(),
    paused_conditions: ctx.markets
      .list()
      .filter((m) => m.paused)
      .map((m) => m.conditionId),
  }));

  app.post(
    '/admin/markets/:conditionId/resolve',
    { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Resolve a market: the winning outcome pays 1', params: ResolveParams, body: ResolveBody, response: { 200: PublicMarketSchema } } },
    async (req) => {
      const { conditionId } = req.params as { conditionId: string };
      const { winningOutcomeIndex } = req.body as { winningOutcomeIndex: number };
      return data.publicMarket(await ctx.markets.resolve(conditionId, winningOutcomeIndex));
    },
  );

  app.put(
    '/admin/markets/:conditionId/fee-rate',
    { ...base, preValidation: jsonNumber('feeRateBps'), schema: { tags: TAG, security: SECURITY, summary: "Set a market's fees: a base fee in bps (the schedule built from it) or a full fee schedule", params: ResolveParams, body: FeeRateBody, response: { 200: PublicMarketSchema } } },
    async (req) => {
      const { conditionId } = req.params as { conditionId: string };
      return data.publicMarket(await ctx.markets.setFees(conditionId, req.body as { feeRateBps?: number; feeSchedule?: unknown }));
    },
  );

  app.put(
    '/admin/markets/:conditionId/tick-size',
    {
      ...base,
      preValidation: decimalStrings('tickSize'),
      schema: { tags: TAG, security: SECURITY, summary: "Change a market's tick (streams send tick_size_change)", params: ResolveParams, body: TickSizeBody, response: { 200: PublicMarketSchema } },
    },
    async (req) => {
      const { conditionId } = req.params as { conditionId: string };
      const { tickSize } = req.body as { tickSize: string };
      return data.publicMarket(await ctx.markets.setTickSize(conditionId, tickSizeUnits(tickSize)));
    },
  );

  app.post('/admin/faucet', { ...base, preValidation: decimalStrings('amount'), schema: { tags: TAG, security: SECURITY, summary: 'Credit paper collateral to an address', body: FaucetBody, response: { 200: FaucetResponse } } }, async (req) => {
    const { address, amount } = req.body as { address: string; amount: string };
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
      throw new ApiError('invalid_field', `address must be 0x followed by 40 hex digits; got ${JSON.stringify(address)}.`, { details: { field: 'address' } });
    }
    const units = parseUnits(amount);
    if (units === undefined || units === 0n) {
      throw new ApiError('invalid_field', `amount must be a positive decimal string of collateral units with at most 6 decimals, e.g. "250.5"; got ${JSON.stringify(amount)}.`, { details: { field: 'amount' } });
    }
    await ctx.orders.creditCollateral(address.toLowerCase(), units, 'faucet');
    return { address: address.toLowerCase(), credited: formatUnits(units) };
  });
}

/** A tick as micro-units; the market service checks it is one of the allowed ticks. */
function tickSizeUnits(text: string): bigint {
  const units = parseUnits(text);
  if (units === undefined) throw new ApiError('invalid_field', `tickSize must be a decimal string: "0.1", "0.01", "0.001" or "0.0001"; got ${JSON.stringify(text)}.`, { details: { field: 'tickSize' } });
  return units;
}
