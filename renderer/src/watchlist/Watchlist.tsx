import { useMemo } from 'react';
import { useBook, useMarkets, useSelection } from '../api/hooks.js';
import { useUi } from '../state/uiStore.js';
import { bookLadder } from '../ladder/bookLadder.js';
import { fixedDecimals, tickDecimals } from '../format.js';
import type { Market } from '../api/types.js';
import { MirrorBadge } from '../mirror/MirrorBadge.js';

/**
 * The favourites with their first outcome's live best bid, best ask and last trade. Each row reads the
 * same book query the order book uses, which the market stream keeps current for starred markets
 * (useLiveStreams subscribes to them) and polling backs up.
 */
export function Watchlist() {
  const { data: markets } = useMarkets();
  const favourites = useUi((s) => s.favourites);
  const byId = useMemo(() => new Map((markets ?? []).map((m) => [m.condition_id, m])), [markets]);
  const starred = favourites.map((id) => byId.get(id)).filter((m): m is Market => !!m);
  return (
    <div className="watchlist" data-testid="watchlist">
      <div className="watchlist-head">
        <span>Watchlist</span>
        <span className="muted">bid · ask · last</span>
      </div>
      {starred.length === 0 ? (
        <div className="muted watchlist-empty">Star a market (☆ beside its title) to watch it here.</div>
      ) : (
        <ul>
          {starred.map((m) => (
            <WatchRow key={m.condition_id} market={m} />
          ))}
        </ul>
      )}
    </div>
  );
}

function WatchRow({ market }: { market: Market }) {
  const token = market.tokens[0];
  const { data: book } = useBook(token?.token_id);
  const { market: current } = useSelection();
  const selectMarket = useUi((s) => s.selectMarket);
  const ladder = useMemo(() => (book ? bookLadder(book, 1) : undefined), [book]);
  const dp = tickDecimals(market.minimum_tick_size);
  const active = current?.condition_id === market.condition_id;
  return (
    <li>
      <button
        className={`ghost watch-row${active ? ' on' : ''}`}
        data-testid="watch-row"
        data-condition-id={market.condition_id}
        data-bid={ladder?.bestBid ?? ''}
        data-ask={ladder?.bestAsk ?? ''}
        data-last={book?.last_trade_price ?? ''}
        onClick={() => selectMarket(market.condition_id)}
      >
        <span className="watch-q" title={market.question}>
          {market.question} <span className="muted">{token?.outcome}</span> <MirrorBadge market={market} compact />
        </span>
        <span className="num up">{ladder?.bestBid ? fixedDecimals(ladder.bestBid, dp) : '—'}</span>
        <span className="num down">{ladder?.bestAsk ? fixedDecimals(ladder.bestAsk, dp) : '—'}</span>
        <span className="num">{book?.last_trade_price ? fixedDecimals(book.last_trade_price, dp) : '—'}</span>
      </button>
    </li>
  );
}
