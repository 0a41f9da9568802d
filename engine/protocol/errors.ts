/**
 * The one registry of stable error codes. Every HTTP error body the engine sends is
 * `{"error": code, "message": sentence, "details"?: {...}}` (decisions §1), and the HTTP status of a
 * code is decided here and nowhere else.
 */

export const ERRORS = {
  // generic request problems
  not_found: { status: 404, message: 'No route matches this method and path. See GET /openapi.json for the routes.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON. Send a JSON document.' },
  invalid_field: { status: 400, message: 'A field is missing or malformed.' },
  invalid_query: { status: 400, message: 'A query parameter is missing or malformed.' },
  payload_too_large: { status: 413, message: 'The request body is larger than 1 MiB. Send a smaller body.' },
  rate_limited: { status: 429, message: 'Too many requests are queued for this client. Retry after the Retry-After seconds.' },
  internal_error: { status: 500, message: 'The engine failed internally. The request was not applied.' },
  renderer_not_built: { status: 404, message: 'The terminal is not built. Run `npm run build:renderer`, then reload /app/.' },

  // authentication (decisions §1, §2)
  missing_auth_headers: { status: 401, message: 'Authentication headers are missing.' },
  invalid_signature: { status: 401, message: 'The request signature does not verify.' },
  timestamp_out_of_window: { status: 401, message: 'SERVICE_TIMESTAMP is too far from the server clock. Use GET /time.' },
  unknown_api_key: { status: 401, message: 'SERVICE_API_KEY is not a key issued by this exchange.' },
  api_key_revoked: { status: 401, message: 'SERVICE_API_KEY has been revoked. Create a new key with POST /auth/api-key.' },
  passphrase_mismatch: { status: 401, message: 'SERVICE_PASSPHRASE does not belong to SERVICE_API_KEY.' },
  address_mismatch: { status: 401, message: 'SERVICE_ADDRESS is not the address that owns this API key.' },
  invalid_auth_header: { status: 401, message: 'An authentication header is malformed.' },
  nonce_reused: { status: 401, message: 'SERVICE_NONCE is below the highest accepted nonce, or this signature was already used.' },
  request_timeout: { status: 408, message: 'The request did not arrive whole in time (head within 10 s, body within 30 s); send it again without pausing.' },
  misdirected_host: { status: 421, message: 'This exchange answers only to this machine\'s loopback names (127.0.0.1, localhost, [::1]) and its configured host.' },
  cross_origin_refused: { status: 403, message: 'Requests from other web sites are refused; only the terminal served by this engine may call it from a browser.' },
  invalid_bootstrap_code: { status: 401, message: 'The bootstrap code is unknown, used or expired (each works once, for a minute). Restart `npm start`, or paste the operatorToken of the ready line.' },
  api_key_limit: { status: 409, message: 'This wallet holds the most live API keys it may (100). Reuse one or revoke one with DELETE /auth/api-key.' },
  operator_unauthorized: { status: 401, message: 'Operator routes need Authorization: Bearer <operatorToken> (printed in the ready line).' },
  agent_unauthorized: { status: 401, message: 'The MCP endpoint needs Authorization: Bearer <agent token> (POST /admin/agents issues one).' },
  agent_not_found: { status: 404, message: 'No agent has this id. List agents with GET /admin/agents.' },
  tape_not_found: { status: 404, message: 'No tape has this name. List tapes with GET /admin/tapes (names under <data>/tapes/).' },
  tape_unreadable: { status: 400, message: 'The file is not a tape this engine reads (docs/tapes.md: gzip JSON lines, a version 1 header first).' },
  replay_not_found: { status: 404, message: 'No replay has this id. Start one with POST /admin/replays.' },

  // mirrors of public markets (decisions §10)
  mirror_not_found: { status: 404, message: 'No public market matches this slug, condition id or URL. Search with GET /admin/mirrors/search?q=<words> and mirror a result by its condition id.' },
  upstream_unavailable: { status: 502, message: 'The public market service did not answer usably (down, slow, rate-limited or malformed). Check the --upstream-clob, --upstream-gamma and --upstream-ws URLs and the network, then retry.' },

  // orders (interface §7, decisions §3)
  owner_address_mismatch: { status: 400, message: 'owner must equal the SERVICE_ADDRESS header.' },
  invalid_batch_size: { status: 400, message: 'batch supports at most 15 orders' },
  system_paused: { status: 409, message: 'Trading is paused for the whole exchange (global circuit breaker).' },
  condition_paused: { status: 409, message: 'Trading is paused for this market (condition circuit breaker).' },
  order_not_found: { status: 404, message: 'No order has this id.' },
  order_not_resting: { status: 409, message: 'The order is not resting on the book (filled, cancelled or expired), so it has no queue position.' },
  market_not_found: { status: 404, message: 'No market has this condition id. List markets with GET /markets.' },
  token_not_found: { status: 404, message: 'No market trades this token id. List markets with GET /markets.' },
  no_liquidity: { status: 404, message: 'No orders rest on the side of the book this price needs. See GET /book.' },
  market_resolved: { status: 409, message: 'The market is resolved and no longer trades.' },
  market_not_resolved: { status: 409, message: 'The market is not resolved yet.' },
  market_stale: { status: 409, message: 'This mirrored market has not heard from its public upstream lately, so its public depth may be out of date: an order that would trade now is refused. A non-marketable order may still rest; retry once GET /markets/{condition_id} shows mirror.upstreamState "live".' },
  nothing_to_redeem: { status: 400, message: 'This address holds no positions of this market to redeem.' },
  clock_advancing: { status: 409, message: 'The exchange clock is advancing (POST /admin/clock/advance); writes wait until it has answered. Reads answer meanwhile.' },
  clock_not_stepped: { status: 409, message: 'The exchange clock is not in stepped mode; start the engine with --clock stepped to advance it on request.' },
  clock_stalled: { status: 409, message: 'Simulated time stopped advancing: participants scheduled work without a wait. Lower their intensity or raise latencyMs.' },
  invalid_heartbeat_id: { status: 400, message: 'Invalid Heartbeat ID: send the heartbeat_id of your last answer, or null to start a new heartbeat session.' },

  // relayer (interface §4.4, §7, decisions §4)
  invalid_relayer_payload: { status: 400, message: 'The relayer payload is malformed.' },
  relayer_nonce_conflict: { status: 409, message: 'The nonce is stale or already used. Fetch a fresh one with GET /nonce.' },
  relay_call_reverted: { status: 400, message: 'relay call reverted' },
  safe_proxy_deployment_reverted: { status: 400, message: 'safe proxy deployment reverted' },
  safe_not_deployed: { status: 400, message: 'The Safe is not deployed. Deploy it with SAFE-CREATE or POST /wallet/safe first.' },
  safe_already_deployed: { status: 400, message: 'The Safe is already deployed.' },
  wallet_service_disabled: { status: 503, message: 'The wallet service is disabled: the engine runs without a chain (--chain none).' },
  wallet_transport_error: { status: 502, message: 'wallet_transport_error: the chain RPC could not be reached.' },
  upstream_rpc_error: { status: 502, message: 'The chain RPC call failed.' },
  invalid_relayer_signature: { status: 400, message: 'The signature does not recover to the signer of the payload. Re-sign the exact payload.' },
  execution_reverted: { status: 400, message: 'The transaction would revert on chain, so it was not queued.' },
  relay_nonce_mismatch: { status: 400, message: 'The relay-hub nonce is not the owner’s current one (WrongNonce). Fetch it with GET /nonce?type=PROXY and re-sign.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export function statusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}

/** A failure that maps to an HTTP error body. Services throw it; only the HTTP layer renders it. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** Extra top-level body fields (e.g. a placement result that rides along with a 400). */
  readonly body: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    opts: { details?: Record<string, unknown>; body?: Record<string, unknown>; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = opts.status ?? ERRORS[code].status;
    this.details = opts.details;
    this.body = opts.body;
    this.headers = opts.headers;
  }

  toBody(): Record<string, unknown> {
    return {
      ...(this.body ?? {}),
      error: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/**
 * Placement error codes (interface §7): they travel inside a placement result as error_code/error_msg,
 * not as HTTP error codes. The default messages are the document's verbatim.
 */
export const PLACEMENT_ERRORS = {
  INVALID_ORDER_MIN_TICK_SIZE: 'order is invalid. Price breaks minimum tick size rules',
  INVALID_ORDER_MIN_SIZE: 'order is invalid. Size lower than the minimum',
  INVALID_ORDER_DUPLICATED: "order is invalid. Duplicated. Same order has already been placed, can't be placed again",
  INVALID_ORDER_NOT_ENOUGH_BALANCE: 'not enough balance / allowance',
  INVALID_ORDER_EXPIRATION: 'invalid expiration',
  INVALID_ORDER_ERROR: 'could not insert order',
  EXECUTION_ERROR: 'could not run the execution',
  ORDER_DELAYED: 'order match delayed due to market conditions',
  DELAYING_ORDER_ERROR: 'error delaying the order',
  FOK_ORDER_NOT_FILLED_ERROR: "order couldn't be fully filled, FOK orders are fully filled/killed",
  MARKET_NOT_READY: 'the market is not yet ready to process new orders',
  /** This exchange's own: the account already has the most resting orders it may have (docs/api-orders.md). */
  INVALID_ORDER_TOO_MANY_OPEN_ORDERS: 'too many open orders: cancel some before placing more',
} as const;

export type PlacementErrorCode = keyof typeof PLACEMENT_ERRORS;

/** Batch lookup entry errors (interface §2.5). */
export const LOOKUP_ERRORS = ['order_id_cannot_be_empty', 'order_not_found', 'internal_error'] as const;
export type LookupErrorCode = (typeof LOOKUP_ERRORS)[number];
