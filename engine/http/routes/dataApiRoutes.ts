import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  Activity,
  ActivityQuery,
  BuilderLeaderboardRow,
  BuildersLeaderboardQuery,
  BuildersVolumeQuery,
  BuilderVolumeRow,
  ClosedPosition,
  ClosedPositionsQuery,
  DataError,
  Health,
  HolderGroup,
  HoldersQuery,
  LiveVolume,
  LiveVolumeQuery,
  OiQuery,
  OpenInterest,
  Position,
  PositionsQuery,
  Trade,
  TradedQuery,
  TradesQuery,
  UserTraded,
  UserValue,
  ValueQuery,
} from '../../protocol/schemas/data.js';
import type { EngineContext } from '../engineContext.js';
import type { RawQuery } from '../../services/data/dataQuery.js';

/**
 * The data service (decisions §0: registered under /data-api). Reads only, no authentication.
 *
 * The query schemas document the parameters for OpenAPI, but the data service parses and checks them
 * itself (services/data/dataQuery.ts), so every 400 `invalid_query` names the parameter, the received
 * value and the accepted range; the schema validator is therefore switched off for these routes.
 */
export function dataApiRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const route = (path: string, summary: string, querystring: TSchema | undefined, response: TSchema, handler: (q: RawQuery) => unknown) => {
    app.get(
      path,
      {
        schema: {
          tags: ['data'],
          summary,
          ...(querystring ? { querystring } : {}),
          response: { 200: response, 400: DataError },
        },
        validatorCompiler: () => () => true,
      },
      async (req) => handler((req.query ?? {}) as RawQuery),
    );
  };

  route('/', 'Health check: {"data":"OK"}', undefined, Health, () => ctx.data.health());
  route('/positions', "A wallet's open positions (average cost, valued now)", PositionsQuery, Type.Array(Position), (q) => ctx.data.positions(q));
  route('/closed-positions', "A wallet's positions closed by selling, merging or redeeming", ClosedPositionsQuery, Type.Array(ClosedPosition), (q) =>
    ctx.data.closedPositions(q),
  );
  route('/value', "Current value of a wallet's open positions", ValueQuery, Type.Array(UserValue), (q) => ctx.data.value(q));
  route('/traded', 'How many markets a wallet has traded', TradedQuery, UserTraded, (q) => ctx.data.traded(q));
  route('/oi', 'Open interest per market, or GLOBAL', OiQuery, Type.Array(OpenInterest), (q) => ctx.data.openInterest(q));
  route('/live-volume', 'Traded notional of the markets of an event', LiveVolumeQuery, Type.Array(LiveVolume), (q) => ctx.data.liveVolume(q));
  route('/trades', 'Fills, newest first (the tape, or one wallet)', TradesQuery, Type.Array(Trade), (q) => ctx.data.trades(q));
  route('/activity', "A wallet's trades and redemptions", ActivityQuery, Type.Array(Activity), (q) => ctx.data.activity(q));
  route('/holders', 'Top holders per outcome of each market', HoldersQuery, Type.Array(HolderGroup), (q) => ctx.data.holders(q));
  route('/v1/builders/leaderboard', 'Builder leaderboard (empty for now)', BuildersLeaderboardQuery, Type.Array(BuilderLeaderboardRow), (q) =>
    ctx.data.buildersLeaderboard(q),
  );
  route('/v1/builders/volume', 'Builder daily volume (empty for now)', BuildersVolumeQuery, Type.Array(BuilderVolumeRow), (q) =>
    ctx.data.buildersVolume(q),
  );
}
