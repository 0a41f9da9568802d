/**
 * The operator routes of tapes and replays (decisions §10, docs/tapes.md): recording on or off, the list
 * of tapes, starting a replay and its report.
 */
import { Type } from '@sinclair/typebox';

export const TapeRow = Type.Object({
  name: Type.String({ description: 'File name under <data>/tapes/: <conditionId>-<YYYY-MM-DD>.jsonl.gz' }),
  conditionId: Type.String(),
  question: Type.String(),
  day: Type.String({ description: 'UTC day of the file, YYYY-MM-DD' }),
  bytes: Type.Integer({ minimum: 0 }),
  events: Type.Integer({ minimum: 0, description: 'Entry lines (upstream events, resyncs, market polls), the header not counted' }),
  startedAt: Type.Integer({ description: "Receive time of the file's first entry, unix ms" }),
});

export const TapesResponse = Type.Object({ recording: Type.Boolean(), tapes: Type.Array(TapeRow) });

export const RecordingBody = Type.Object({ enabled: Type.Boolean({ description: 'true records every mirrored market from now on; false stops (buffered entries are written first)' }) }, { additionalProperties: false });
export const RecordingResponse = Type.Object({ recording: Type.Boolean() });

export const StartReplayBody = Type.Object(
  {
    tape: Type.String({ minLength: 1, maxLength: 4000, description: 'A tape: its name under <data>/tapes/ (GET /admin/tapes), a shipped example name, or a path; several of one market comma-separated play as one' }),
    speed: Type.Optional(Type.Number({ description: 'Tape milliseconds per exchange millisecond (default 1): 10 plays ten times faster than recorded' })),
  },
  { additionalProperties: false },
);

export const ReplayParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const ReplayStateFields = {
  replayId: Type.String(),
  tapes: Type.Array(Type.String()),
  conditionId: Type.String(),
  question: Type.String(),
  source: Type.String({ description: '`tape:<name>`: the market record says it in mirror.source' }),
  speed: Type.Number(),
  phase: Type.Union([Type.Literal('running'), Type.Literal('finished')]),
  startedAt: Type.Integer({ description: 'Exchange time the replay started, unix ms' }),
  tapeStart: Type.Integer(),
  tapeEnd: Type.Integer(),
  entries: Type.Integer(),
  played: Type.Integer(),
  printFills: Type.Integer({ description: 'Local fills made by public prints so far' }),
  finishedAt: Type.Union([Type.Integer(), Type.Null()]),
  problems: Type.Array(Type.String(), { description: 'The first entries the decoder skipped, and why' }),
  problemCount: Type.Integer(),
};

export const ReplayStateSchema = Type.Object(ReplayStateFields);
export const ReplayListResponse = Type.Array(ReplayStateSchema);

const Money = Type.String({ description: 'Decimal string' });
const ReportAccount = Type.Object({
  account: Type.String(),
  pnl: Money,
  realisedPnl: Money,
  unrealisedPnl: Money,
  fees: Money,
  fills: Type.Integer(),
  trades: Type.Integer(),
  turnover: Money,
  maxDrawdown: Money,
  positions: Type.Array(Type.Object({ tokenId: Type.String(), size: Money, averagePrice: Money, mark: Type.Union([Money, Type.Null()]) })),
});
const FillableAccount = Type.Object({ account: Type.String(), orders: Type.Integer(), filledOrders: Type.Integer(), filled: Money, notional: Money, pnlBeforeFees: Money });

export const ReplayReportSchema = Type.Object({
  ...ReplayStateFields,
  now: Type.Integer(),
  latencyMs: Type.Integer({ description: "The engine's fill latency (--latency-ms)" }),
  marking: Type.String(),
  accounts: Type.Array(ReportAccount, { description: 'Each user account that traded on the replayed market: PnL, fees, fills on this market' }),
  fillable: Type.Object({
    method: Type.String(),
    latencies: Type.Array(Type.Object({ latencyMs: Type.Integer(), accounts: Type.Array(FillableAccount) }), { description: "What the user's orders would have filled at other latencies" }),
  }),
});
