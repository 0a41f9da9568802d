/**
 * A rejection as a trader reads it: what went wrong and what to do next, with long token ids and
 * addresses shortened so a toast or the ticket never overflows (issue 14, defect 4).
 */
export interface Translated {
  title: string;
  /** What to do about it, one sentence. */
  action: string;
  /** The server's code, kept for support and tests. */
  code: string;
  /** The server's message with long ids shortened. */
  detail: string;
}

const ACTIONS: Record<string, { title: string; action: string }> = {
  INVALID_ORDER_MIN_TICK_SIZE: { title: 'Price is off the tick', action: 'Round the price to a multiple of the market’s tick size.' },
  INVALID_ORDER_MIN_SIZE: { title: 'Size below the minimum', action: 'Raise the size to at least the market’s minimum order size.' },
  INVALID_ORDER_NOT_ENOUGH_BALANCE: { title: 'Not enough balance', action: 'Lower the size or price, cancel resting orders that reserve funds, or add funds.' },
  INVALID_ORDER_EXPIRATION: { title: 'Expiry too soon', action: 'Pick an expiry at least a minute (plus the 60 s buffer) in the future.' },
  INVALID_ORDER_DUPLICATED: { title: 'Duplicate order', action: 'This exact order was already placed; change the size or price to place another.' },
  FOK_ORDER_NOT_FILLED_ERROR: { title: 'Fill-or-kill not filled', action: 'The book cannot fill the whole size at this price: lower the size, move the price, or use FAK.' },
  MARKET_NOT_READY: { title: 'Market not ready', action: 'Wait until the market opens for orders.' },
  system_paused: { title: 'Exchange paused', action: 'Trading is paused by the operator; try again once it resumes.' },
  condition_paused: { title: 'Market paused', action: 'This market is paused by the operator; try again once it resumes.' },
  market_resolved: { title: 'Market resolved', action: 'The market is settled: redeem winning positions in Positions instead.' },
  market_stale: { title: 'Mirror is stale', action: 'The public market has been silent, so its depth may be out of date: wait for the MIRRORED badge to show live, or rest a limit order that does not cross.' },
  no_liquidity: { title: 'No liquidity', action: 'Nothing rests on the other side: place a limit order instead.' },
  rate_limited: { title: 'Too many requests', action: 'Wait a moment before sending again.' },
  network_error: { title: 'Engine unreachable', action: 'Check that the exchange engine is running, then retry.' },
  user_rejected: { title: 'Signature declined', action: 'The wallet declined to sign; nothing was sent. Sign to place the order.' },
  unknown_api_key: { title: 'API key unknown', action: 'Create a new API key for this wallet.' },
  api_key_revoked: { title: 'API key revoked', action: 'Create a new API key for this wallet.' },
};

/** Replaces 0x-addresses/hashes and long decimal token ids with head…tail. */
export function shortenIds(text: string): string {
  return text.replace(/0x[0-9a-fA-F]{16,}/g, (m) => `${m.slice(0, 6)}…${m.slice(-4)}`).replace(/\b\d{16,}\b/g, (m) => `${m.slice(0, 6)}…${m.slice(-4)}`);
}

/** Wallet errors (viem) carry multi-line details and a version line: keep the first sentence only. */
function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.replace(/\s*Version: \S+/g, '').trim();
}

export function translateRejection(code: string | null | undefined, message: string | null | undefined): Translated {
  const raw = message ?? '';
  let key = code ?? '';
  if (/user (rejected|denied)|rejected the request/i.test(raw)) key = 'user_rejected';
  const known = ACTIONS[key];
  const detail = shortenIds(firstLine(raw));
  if (known) return { ...known, code: key, detail };
  return { title: 'Order rejected', action: detail || 'The exchange refused the order.', code: key || 'rejected', detail };
}
