import { parseUnits } from '../../protocol/amounts.js';
import type { DecodeResult, MarketDecoder, PublicBookEvent, PublicLevel, PublicMarketIdentity, TapeEntry } from '../mirror/mirrorTypes.js';

/**
 * A MarketDecoder for what tapes hold, used by replays until hup's `createMarketDecoder`
 * (engine/services/mirror/marketDecoder.ts, MIRROR.md) is merged; the composition root wires ONE decoder
 * for live mirrors and replays alike, so the swap is one line in engine/engine.ts.
 *
 * Reads the public market channel's `book`, `price_change` (the 2025-09 `price_changes[]` form),
 * `last_trade_price`, `tick_size_change` and `market_resolved` events, a `GET /book` answer (resync) and
 * a CLOB `GET /markets/{id}` answer (closed, winner). Keeps outcome 0's token only: outcome 1's book is
 * its mirror image and each match prints once per token. Never throws: bad parts go to `problems`.
 */
export function createInterimMarketDecoder(identity: PublicMarketIdentity): MarketDecoder {
  const yes = identity.tokenIds[0];
  const no = identity.tokenIds[1];
  let haveSnapshot = false;
  return {
    decode(entry: TapeEntry): DecodeResult {
      const events: PublicBookEvent[] = [];
      const problems: string[] = [];
      let needsResync = false;
      const snapshot = (o: Record<string, unknown>) => {
        if (o.asset_id !== undefined && o.asset_id !== yes) return;
        const bids = levels(o.bids, problems);
        const asks = levels(o.asks, problems);
        events.push({ kind: 'snapshot', bids, asks });
        haveSnapshot = true;
      };
      if ('resync' in entry) {
        if (isObject(entry.resync)) snapshot(entry.resync);
        else problems.push('resync is not a book object');
      } else if ('market' in entry) {
        const m = entry.market;
        if (!isObject(m)) problems.push('market poll is not an object');
        else {
          const tokens = Array.isArray(m.tokens) ? m.tokens.filter(isObject) : [];
          const winner = tokens.find((t) => t.winner === true);
          if (winner && (winner.token_id === yes || winner.token_id === no)) events.push({ kind: 'resolved', winner: winner.token_id === yes ? 0 : 1 });
          else if (m.closed === true || m.accepting_orders === false) events.push({ kind: 'closed' });
        }
      } else {
        const e = entry.e;
        if (!isObject(e)) problems.push('event is not an object');
        else
          switch (e.event_type) {
            case 'book':
              snapshot(e);
              break;
            case 'price_change': {
              const changes = Array.isArray(e.price_changes) ? e.price_changes.filter(isObject) : [];
              for (const c of changes) {
                if (c.asset_id !== yes) continue;
                if (!haveSnapshot) {
                  needsResync = true;
                  continue;
                }
                const price = micro(c.price);
                const size = micro(c.size);
                if (price === undefined || size === undefined || price <= 0 || price >= 1_000_000 || (c.side !== 'BUY' && c.side !== 'SELL')) problems.push(`price_change with a bad level ${JSON.stringify(c)}`);
                else events.push({ kind: 'level', side: c.side === 'BUY' ? 'bid' : 'ask', price, size });
              }
              break;
            }
            case 'last_trade_price': {
              if (e.asset_id !== yes) break;
              const price = micro(e.price);
              const size = micro(e.size);
              if (price === undefined || size === undefined || price <= 0 || price >= 1_000_000 || size === 0 || (e.side !== 'BUY' && e.side !== 'SELL')) problems.push('last_trade_price with a bad price, size or side');
              else if (!haveSnapshot) needsResync = true;
              else events.push({ kind: 'print', aggressor: e.side === 'BUY' ? 'bid' : 'ask', price, size });
              break;
            }
            case 'tick_size_change': {
              if (e.asset_id !== yes) break;
              const tick = micro(e.new_tick_size);
              if (tick === undefined || tick <= 0) problems.push('tick_size_change with a bad new_tick_size');
              else {
                events.push({ kind: 'tick', tickSize: tick });
                haveSnapshot = false;
              }
              break;
            }
            case 'market_resolved':
              if (e.winning_asset_id === yes || e.winning_asset_id === no) events.push({ kind: 'resolved', winner: e.winning_asset_id === yes ? 0 : 1 });
              break;
            default:
              break;
          }
      }
      if (needsResync) problems.push('a change arrived before any snapshot of the book');
      return { events, problems, needsResync };
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A decimal string (or number) as micro-units, or undefined. */
function micro(v: unknown): number | undefined {
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : undefined;
  if (text === undefined) return undefined;
  const units = parseUnits(text);
  return units === undefined || units < 0n || units > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(units);
}

function levels(v: unknown, problems: string[]): PublicLevel[] {
  if (!Array.isArray(v)) return [];
  const out: PublicLevel[] = [];
  for (const l of v) {
    const price = isObject(l) ? micro(l.price) : undefined;
    const size = isObject(l) ? micro(l.size) : undefined;
    if (price === undefined || size === undefined || price <= 0 || price >= 1_000_000) problems.push(`book level ${JSON.stringify(l)} is not a price in (0, 1) with a size`);
    else out.push({ price, size });
  }
  return out;
}
