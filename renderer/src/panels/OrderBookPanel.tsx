import { useMemo, type ReactNode } from 'react';
import { Empty, Panel } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useBook, useOpenOrders, useQueuePositions, useSelection, useSession } from '../api/hooks.js';
import { ownSizeByLevel, queueByLevel } from '../ticket/ownOrders.js';
import { bookLadder, type LadderRow } from '../ladder/bookLadder.js';
import { fixedDecimals, tickDecimals } from '../format.js';
import { useUi } from '../state/uiStore.js';

export function OrderBookPanel() {
  const { market, tokenId } = useSelection();
  const { data: book, error, isLoading, dataUpdatedAt } = useBook(tokenId);
  const prefill = useUi((s) => s.prefillTicket);
  const session = useSession();
  const { data: open } = useOpenOrders(session.trader);
  const own = useMemo(() => ownSizeByLevel(open ?? [], tokenId), [open, tokenId]);
  const { data: queue } = useQueuePositions(session.trader);
  const queued = useMemo(() => queueByLevel(queue ?? [], tokenId), [queue, tokenId]);
  const ladder = useMemo(() => (book ? bookLadder(book, 14) : undefined), [book]);
  const dp = tickDecimals(book?.tick_size ?? market?.minimum_tick_size ?? '0.01');

  const row = (side: 'ask' | 'bid', r: LadderRow) => {
    const key = `${side === 'ask' ? 'SELL' : 'BUY'}:${r.price}`;
    const mine = own.get(key);
    const place = mine ? queued.get(key) : undefined;
    return (
    <tr
      key={`${side}-${r.price}`}
      className={`lvl ${side}`}
      data-testid={`book-${side}-row`}
      data-price={r.price}
      data-size={r.size}
      data-own={mine ?? ''}
      title={`${side === 'ask' ? 'Click: buy at this price' : 'Click: sell at this price'}; Shift-click: price and size${mine ? ` · yours: ${mine} of ${r.size} at this level` : ''}`}
      // Clicking an ask lifts it (BUY at that price), a bid hits it (SELL); shift-click also takes the level's size.
      onClick={(e) => prefill({ side: side === 'ask' ? 'BUY' : 'SELL', price: r.price, ...(e.shiftKey ? { size: r.size } : {}) })}
    >
      <td className="px">
        <span className="bar" style={{ width: `${r.depthPct}%` }} />
        <span className="v">{fixedDecimals(r.price, dp)}</span>
        {mine ? (
          <span className="own" data-testid="book-own-marker" aria-label={`your orders: ${mine} shares`}>
            ● {fixedDecimals(mine, 2)}
            {place ? (
              <span className="queue" data-testid="book-own-queue" data-ahead={place.ahead} data-level={place.levelSize} title="Shares ahead of your first order at this price (time priority), of the level's total">
                {' '}
                · ahead {fixedDecimals(place.ahead, 2)} of {fixedDecimals(place.levelSize, 2)}
              </span>
            ) : null}
          </span>
        ) : null}
      </td>
      <td className="num">{fixedDecimals(r.size, 2)}</td>
      <td className="num dim">{fixedDecimals(r.cumulative, 2)}</td>
    </tr>
    );
  };

  return (
    <Panel
      title="Order book"
      className="book"
      testId="book-panel"
      actions={<span className="muted mono" title="snapshot hash">{book ? `${book.hash.slice(0, 8)} · ${new Date(dataUpdatedAt).toLocaleTimeString()}` : ''}</span>}
    >
      <ErrorLine error={error} />
      {isLoading && !book ? <Empty>Loading book…</Empty> : null}
      {ladder ? (
        <table className="ladder">
          <thead>
            <tr>
              <th>Price</th>
              <th className="num">Size</th>
              <th className="num">Total</th>
            </tr>
          </thead>
          <LadderSide side="asks" empty="No asks">
            {ladder.asks.map((r) => row('ask', r))}
          </LadderSide>
          <tbody>
            <tr className="spread-row" data-testid="book-spread">
              <td>
                <span className="dim">Spread </span>
                <b data-testid="book-spread-value">{ladder.spread !== undefined ? fixedDecimals(ladder.spread, dp) : '—'}</b>
              </td>
              <td colSpan={2} className="num">
                <span className="dim">Mid </span>
                <b data-testid="book-mid">{ladder.mid !== undefined ? fixedDecimals(ladder.mid, dp + 1) : '—'}</b>
              </td>
            </tr>
          </tbody>
          <LadderSide side="bids" empty="No bids">
            {ladder.bids.map((r) => row('bid', r))}
          </LadderSide>
        </table>
      ) : null}
    </Panel>
  );
}

/** One side of the ladder, or a line saying it is empty. */
function LadderSide({ side, empty, children }: { side: 'asks' | 'bids'; empty: string; children: ReactNode[] }) {
  return (
    <tbody className={side}>
      {children.length === 0 ? (
        <tr>
          <td colSpan={3} className="empty-side">
            {empty}
          </td>
        </tr>
      ) : (
        children
      )}
    </tbody>
  );
}
