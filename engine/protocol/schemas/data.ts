/**
 * Wire shapes of the data service (interface §4.5, decisions §5, data-api.md §4): the public data API v1
 * (camelCase fields, numbers as JSON numbers, unix-second timestamps, every field always present).
 *
 * The query schemas document each route's parameters (types, ranges, defaults) for OpenAPI; the data
 * service itself parses and checks them, so every 400 names the parameter, the value and what is accepted.
 * Field order in the row schemas is the order the service emits.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

// ── enums ──────────────────────────────────────────────────────────────────────────────────────────

export const POSITION_SORTS = ['CURRENT', 'INITIAL', 'TOKENS', 'CASHPNL', 'PERCENTPNL', 'TITLE', 'RESOLVING', 'PRICE', 'AVGPRICE'] as const;
export type PositionSort = (typeof POSITION_SORTS)[number];
export const CLOSED_POSITION_SORTS = ['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP'] as const;
export type ClosedPositionSort = (typeof CLOSED_POSITION_SORTS)[number];
export const ACTIVITY_SORTS = ['TIMESTAMP', 'TOKENS', 'CASH'] as const;
export type ActivitySort = (typeof ACTIVITY_SORTS)[number];
export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
/** The spellings a popular Rust client sends, mapped to the canonical ones (data-api.md §4.1, §9.4). */
export const SORT_ALIASES = {
  CASH_PNL: 'CASHPNL',
  PERCENT_PNL: 'PERCENTPNL',
  AVG_PRICE: 'AVGPRICE',
  REALIZED_PNL: 'REALIZEDPNL',
} as const;
export const ACTIVITY_TYPES = [
  'TRADE',
  'SPLIT',
  'MERGE',
  'REDEEM',
  'REWARD',
  'CONVERSION',
  'MAKER_REBATE',
  'TAKER_REBATE',
  'REFERRAL_REWARD',
  'DEPOSIT',
  'WITHDRAWAL',
  'YIELD',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export const TRADE_SIDES = ['BUY', 'SELL'] as const;
export const FILTER_TYPES = ['CASH', 'TOKENS'] as const;
export const TIME_PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
export type TimePeriod = (typeof TIME_PERIODS)[number];

// ── query parameters (documentation; parsed by services/data/dataQuery.ts) ─────────────────────────

const Q = (description: string) => Type.Optional(Type.String({ description }));
const QInt = (description: string, minimum: number, maximum?: number) =>
  Type.Optional(Type.Integer({ description, minimum, ...(maximum !== undefined ? { maximum } : {}) }));
const QNum = (description: string) => Type.Optional(Type.Number({ description, minimum: 0 }));
const QBool = (description: string) => Type.Optional(Type.Boolean({ description }));
const Required = (schema: TSchema) => schema;

const USER = 'Wallet address (0x + 40 hex, any case): the funding (proxy) wallet';
const MARKET = 'Comma-separated condition ids (0x + 64 hex); exclusive with eventId';
const EVENT = 'Comma-separated event ids (integers ≥ 1); exclusive with market';

export const PositionsQuery = Type.Object({
  user: Required(Type.String({ description: USER })),
  market: Q(MARKET),
  eventId: Q(EVENT),
  sizeThreshold: QNum('Hide rows with size below this many shares; default 1'),
  redeemable: QBool('true = only redeemable rows; default false'),
  mergeable: QBool('true = only mergeable rows; default false'),
  limit: QInt('Rows per page; default 100', 0, 500),
  offset: QInt('Rows to skip; default 0', 0, 10000),
  sortBy: Q(`${POSITION_SORTS.join(' | ')} (aliases CASH_PNL, PERCENT_PNL, AVG_PRICE); default TOKENS`),
  sortDirection: Q('ASC | DESC; default DESC'),
  title: Q('Case-insensitive substring of the market title, at most 100 characters'),
});

export const ClosedPositionsQuery = Type.Object({
  user: Required(Type.String({ description: USER })),
  market: Q(MARKET),
  eventId: Q(EVENT),
  title: Q('Case-insensitive substring of the market title, at most 100 characters'),
  limit: QInt('Rows per page; default 10', 0, 50),
  offset: QInt('Rows to skip; default 0', 0, 100000),
  sortBy: Q(`${CLOSED_POSITION_SORTS.join(' | ')} (aliases REALIZED_PNL, AVG_PRICE); default REALIZEDPNL`),
  sortDirection: Q('ASC | DESC; default DESC'),
});

export const ValueQuery = Type.Object({ user: Required(Type.String({ description: USER })), market: Q('Comma-separated condition ids') });
export const TradedQuery = Type.Object({ user: Required(Type.String({ description: USER })) });
export const OiQuery = Type.Object({ market: Q('Comma-separated condition ids; omit for the GLOBAL row') });
export const LiveVolumeQuery = Type.Object({ id: Required(Type.Integer({ description: 'Event id (integer ≥ 1)', minimum: 1 })) });

export const TradesQuery = Type.Object({
  user: Q(USER + '; omit for the whole tape'),
  market: Q(MARKET),
  eventId: Q(EVENT),
  limit: QInt('Rows per page; default 100', 0, 10000),
  offset: QInt('Rows to skip; default 0', 0, 10000),
  takerOnly: QBool('Default true: each fill once, from the taker side; false adds the maker side'),
  filterType: Q('CASH (size × price) | TOKENS (size); requires filterAmount'),
  filterAmount: QNum('Minimum for filterType; requires filterType'),
  side: Q('BUY | SELL'),
  start: QInt('Unix seconds, inclusive', 0),
  end: QInt('Unix seconds, inclusive', 0),
});

export const ActivityQuery = Type.Object({
  user: Required(Type.String({ description: USER })),
  market: Q(MARKET),
  eventId: Q(EVENT),
  type: Q(`Comma-separated: ${ACTIVITY_TYPES.join(', ')}`),
  limit: QInt('Rows per page; default 100', 0, 500),
  offset: QInt('Rows to skip; default 0', 0, 10000),
  start: QInt('Unix seconds, inclusive', 0),
  end: QInt('Unix seconds, inclusive', 0),
  sortBy: Q('TIMESTAMP | TOKENS | CASH; default TIMESTAMP'),
  sortDirection: Q('ASC | DESC; default DESC'),
  side: Q('BUY | SELL (TRADE rows only)'),
});

export const HoldersQuery = Type.Object({
  market: Required(Type.String({ description: 'Comma-separated condition ids (0x + 64 hex), required' })),
  limit: QInt('Holders per outcome group; default 100', 0, 500),
  minBalance: QNum('Drop wallets holding fewer shares; default 1'),
});

export const BuildersLeaderboardQuery = Type.Object({
  timePeriod: Q('DAY | WEEK | MONTH | ALL; default DAY'),
  limit: QInt('Rows per page; default 25', 0, 50),
  offset: QInt('Rows to skip; default 0', 0, 1000),
});

export const BuildersVolumeQuery = Type.Object({ timePeriod: Q('DAY | WEEK | MONTH | ALL; default DAY') });

// ── response rows ──────────────────────────────────────────────────────────────────────────────────

const S = (description?: string) => Type.String(description ? { description } : {});
const N = (description?: string) => Type.Number(description ? { description } : {});
const I = (description?: string) => Type.Integer(description ? { description } : {});
const B = (description?: string) => Type.Boolean(description ? { description } : {});

export const Health = Type.Object({ data: Type.Literal('OK') });

/** How the data API names the market of a row (title and slug of the market, its event's slug). */
const marketFields = {
  title: S(),
  slug: S(),
  icon: S(),
  eventSlug: S(),
};

export const Position = Type.Object({
  proxyWallet: S('Holder (lower case)'),
  asset: S('Token id (decimal)'),
  conditionId: S(),
  size: N('Shares held'),
  avgPrice: N('Average entry price'),
  initialValue: N('size × avgPrice'),
  currentValue: N('size × curPrice'),
  cashPnl: N('currentValue − initialValue'),
  percentPnl: N('cashPnl / initialValue × 100; 0 when initialValue is 0'),
  totalBought: N('Lifetime shares acquired'),
  realizedPnl: N('Σ over exits of qty × (exitPrice − avgPrice), less the fees paid on exits and plus the maker rebates earned on them (decisions §10)'),
  percentRealizedPnl: N('(size × exitPrice − initialValue) / initialValue × 100; exitPrice = payout, else best bid, else curPrice'),
  entryFeesUsdc: Type.Optional(
    N('Taker fees paid buying this token less the maker rebates earned buying it (decisions §10; negative when rebates exceed fees; present when non-zero); initialValue and avgPrice stay fee-exclusive'),
  ),
  grossInitialValue: Type.Optional(N('initialValue + entryFeesUsdc (present when fees or rebates were paid)')),
  curPrice: N('Payout if resolved, else midpoint, else last trade, else 0'),
  redeemable: B('Resolved and held'),
  mergeable: B('Both outcomes held, unresolved'),
  ...marketFields,
  eventId: S(),
  outcome: S(),
  outcomeIndex: I(),
  oppositeOutcome: S(),
  oppositeAsset: S(),
  endDate: S('YYYY-MM-DD, "" when open-ended'),
  negativeRisk: B(),
});
export type PositionJson = Static<typeof Position>;

export const ClosedPosition = Type.Object({
  proxyWallet: S(),
  asset: S(),
  conditionId: S(),
  avgPrice: N(),
  totalBought: N(),
  realizedPnl: N(),
  curPrice: N('Payout if resolved, else the current mark'),
  timestamp: I('Unix seconds of the closing movement'),
  ...marketFields,
  outcome: S(),
  outcomeIndex: I(),
  oppositeOutcome: S(),
  oppositeAsset: S(),
  endDate: S('ISO date-time "2026-06-30T00:00:00Z", "" when open-ended'),
});
export type ClosedPositionJson = Static<typeof ClosedPosition>;

export const UserValue = Type.Object({ user: S(), value: N() });
export type UserValueJson = Static<typeof UserValue>;
export const UserTraded = Type.Object({ user: S(), traded: I() });
export type UserTradedJson = Static<typeof UserTraded>;
export const OpenInterest = Type.Object({ market: S('Condition id, or "GLOBAL"'), value: N() });
export type OpenInterestJson = Static<typeof OpenInterest>;
export const LiveVolume = Type.Object({
  total: N(),
  markets: Type.Array(Type.Object({ market: S(), value: N() })),
});
export type LiveVolumeJson = Static<typeof LiveVolume>;

const profileFields = {
  name: S(),
  pseudonym: S(),
  bio: S(),
  profileImage: S(),
  profileImageOptimized: S(),
};

export const Trade = Type.Object({
  proxyWallet: S(),
  side: S('BUY | SELL'),
  asset: S(),
  conditionId: S(),
  size: N('Shares'),
  price: N('Price on asset'),
  timestamp: I(),
  ...marketFields,
  outcome: S(),
  outcomeIndex: I(),
  ...profileFields,
  transactionHash: S(),
  fee: Type.Optional(N('Taker fee of this fill in collateral (decisions §10); present on a taker fill that paid one')),
  rebate: Type.Optional(N("Maker rebate of this fill in collateral (decisions §10): the market's fee_schedule.rebateRate × the fill's fee-equivalent; present on a maker fill that earned one")),
});
export type TradeJson = Static<typeof Trade>;

export const Activity = Type.Object({
  proxyWallet: S(),
  timestamp: I(),
  conditionId: S(),
  type: S(),
  size: N(),
  usdcSize: N(),
  transactionHash: S(),
  price: N('0 for non-trades'),
  asset: S('"" for non-trades'),
  side: S('"" for non-trades'),
  outcomeIndex: I('999 when not applicable'),
  ...marketFields,
  outcome: S(),
  ...profileFields,
  fee: Type.Optional(N('Taker fee paid on this trade in collateral (decisions §10), present when non-zero; usdcSize stays fee-exclusive')),
  rebate: Type.Optional(N('Maker rebate earned on this trade in collateral (decisions §10), present when non-zero; usdcSize stays rebate-exclusive')),
});
export type ActivityJson = Static<typeof Activity>;

export const Holder = Type.Object({
  proxyWallet: S(),
  bio: S(),
  asset: S('Token id (decimal), as used by the order and book routes'),
  pseudonym: S(),
  amount: N('Shares held'),
  displayUsernamePublic: B(),
  outcomeIndex: I(),
  name: S(),
  profileImage: S(),
  profileImageOptimized: S(),
});
export type HolderJson = Static<typeof Holder>;
export const HolderGroup = Type.Object({ token: S('<conditionId>:<outcomeIndex>'), holders: Type.Array(Holder) });
export type HolderGroupJson = Static<typeof HolderGroup>;

export const BuilderLeaderboardRow = Type.Object({
  rank: S(),
  builder: S(),
  builderCode: S(),
  volume: N(),
  activeUsers: I(),
  verified: B(),
  builderLogo: S(),
});
export const BuilderVolumeRow = Type.Object({
  dt: S(),
  builder: S(),
  builderCode: S(),
  builderLogo: S(),
  verified: B(),
  volume: N(),
  activeUsers: I(),
  rank: S(),
});

export const DataError = Type.Object({ error: S('snake_case code'), message: S('What was wrong and how to fix it') });
