/**
 * The operator routes of mirrored public markets (decisions §10, docs/api.md "Mirrors") and the `mirror`
 * field every market record carries.
 */
import { Type, type Static } from '@sinclair/typebox';

export const UpstreamStateSchema = Type.Union([Type.Literal('live'), Type.Literal('stale'), Type.Literal('closed')], {
  description: 'live: the public depth is current; stale: no upstream event for 30 s or a failed resync (marketable orders get 409 market_stale); closed: the public market stopped trading or the mirror was stopped',
});

export const MirrorStatusSchema = Type.Object(
  {
    source: Type.String({ description: '`public` (a live mirror) or `tape:<file name>` (a replay)' }),
    upstreamState: UpstreamStateSchema,
    lastEventAgeMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Exchange ms since the last upstream event (heartbeats count); null before the first' }),
  },
  { description: 'Where a mirrored market comes from and how fresh its public depth is' },
);

/** The nullable form of the market records: null for a local market. */
export const MarketMirrorField = Type.Union([MirrorStatusSchema, Type.Null()], { description: 'Mirror status of a mirrored public market (decisions §10); null for a local market' });

export const StartMirrorBody = Type.Object(
  {
    market: Type.String({ minLength: 1, maxLength: 2000, description: 'A public market: its slug, its condition id (0x + 64 hex; needs only the CLOB upstream) or a polymarket.com URL' }),
  },
  { additionalProperties: false },
);

export const MirrorRow = Type.Object({
  conditionId: Type.String(),
  question: Type.String(),
  source: Type.String({ description: '`public` or `tape:<file name>`' }),
  upstreamState: UpstreamStateSchema,
  lastEventAgeMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  recording: Type.Boolean({ description: 'True while its upstream events are written to a tape (POST /admin/tapes/recording)' }),
});
export type MirrorRowJson = Static<typeof MirrorRow>;

export const ConditionIdParams = Type.Object({ conditionId: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'Condition id of the mirrored market' }) });

export const MirrorSearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, description: 'Words to search the public catalogue for' }),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'At most this many results, 1..50 (default 10)' })),
});

export const PublicCatalogueEntrySchema = Type.Object({
  conditionId: Type.String(),
  slug: Type.String(),
  question: Type.String(),
  eventTitle: Type.String(),
  outcomes: Type.Array(Type.String(), { minItems: 2, maxItems: 2 }),
  outcomePrices: Type.Union([Type.Array(Type.String(), { minItems: 2, maxItems: 2 }), Type.Null()], { description: 'Decimal strings as Gamma reports them (cached summaries, not the book)' }),
  volume: Type.String(),
  closed: Type.Boolean(),
  image: Type.String(),
});

