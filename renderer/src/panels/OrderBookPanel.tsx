import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useBook, useEngineHealth, useOpenOrders, useQueuePositions, useSelection, useSession } from '../api/hooks.js';
import { ownSizeByLevel, queueByLevel } from '../ticket/ownOrders.js';
import { bookLadder, type LadderRow } from '../ladder/bookLadder.js';
import { fixedDecimals, priceText, tickDecimals } from '../format.js';
import { useUi } from '../state/uiStore.js';

export function OrderBookPanel() {
  const { market, tokenId } = useSelection();
  const { data: book, error, isLoading, isError, dataUpdatedAt } = useBook(tokenId);
  const health = useEngineHealth();
  // While the engine does not answer, the levels shown are the last ones seen: say so (issue 23, item 8).
  const stale = !!book && (isError || health.isError);
  const prefill = useUi((s) => s.prefillTicket);
  const priceStyle = useUi((s) => s.priceStyle);
  const session = useSession();
  const { data: open } = useOpenOrders(session.trader);
  const own = useMemo(() => ownSizeByLevel(open ?? [], tokenId), [open, tokenId]);
  const { data: queue } = useQueuePositions(session.trader);
  const queued = useMemo(() => queueByLevel(queue ?? [], tokenId), [queue, tokenId]);
  // Deep enough to scroll through; the box keeps the spread in its middle (issue 23, item 4).
  const ladder = useMemo(() => (book ? bookLadder(book, LADDER_DEPTH) : undefined), [book]);
  const rows = useMemo(() => (ladder ? [...ladder.asks.map((r) => ({ side: 'ask' as const, r })), ...ladder.bids.map((r) => ({ side: 'bid' as const, r }))] : []), [ladder]);
  const { box, spreadRow, following, centre, onScroll, markIntent } = useCentredLadder(ladder);
  // Keyboard: the ladder is one tab stop; ↑/↓ pick a level, Enter prices the ticket from it (Shift+Enter adds its size).
  const [active, setActive] = useState<string | undefined>();
  const activeIndex = rows.findIndex((x) => `${x.side}:${x.r.price}` === active);
  const pick = (side: 'ask' | 'bid', r: LadderRow, withSize: boolean) => prefill({ side: side === 'ask' ? 'BUY' : 'SELL', price: r.price, ...(withSize ? { size: r.size } : {}) });
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (['PageUp', 'PageDown', 'Home', 'End', ' '].includes(e.key)) markIntent();
    if (rows.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      // From nothing picked, the first step lands on the best ask (↑) or the best bid (↓).
      const start = activeIndex >= 0 ? activeIndex + (e.key === 'ArrowDown' ? 1 : -1) : e.key === 'ArrowDown' ? ladder!.asks.length : ladder!.asks.length - 1;
      const next = rows[Math.max(0, Math.min(rows.length - 1, start))]!;
      setActive(`${next.side}:${next.r.price}`);
      box.current?.querySelector(`[data-key="${next.side}:${next.r.price}"]`)?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter' && activeIndex >= 0) {
      e.preventDefault();
      const x = rows[activeIndex]!;
      pick(x.side, x.r, e.shiftKey);
    }
  };
  const dp = tickDecimals(book?.tick_size ?? market?.minimum_tick_size ?? '0.01');

  const row = (side: 'ask' | 'bid', r: LadderRow) => {
    const key = `${side === 'ask' ? 'SELL' : 'BUY'}:${r.price}`;
    const mine = own.get(key);
    const place = mine ? queued.get(key) : undefined;
    return (
    <tr
      key={`${side}-${r.price}`}
      id={`book-level-${side}-${r.price}`}
      data-key={`${side}:${r.price}`}
      className={`lvl ${side}${active === `${side}:${r.price}` ? ' active' : ''}`}
      data-testid={`book-${side}-row`}
      data-price={r.price}
      data-size={r.size}
      data-own={mine ?? ''}
      title={`${side === 'ask' ? 'Click: buy at this price' : 'Click: sell at this price'}; Shift-click: price and size${mine ? ` · yours: ${mine} of ${r.size} at this level` : ''}`}
      // Clicking an ask lifts it (BUY at that price), a bid hits it (SELL); shift-click also takes the level's size.
      onClick={(e) => {
        setActive(`${side}:${r.price}`);
        pick(side, r, e.shiftKey);
      }}
    >
      <td className="px">
        <span className="bar" style={{ width: `${r.depthPct}%` }} />
        <span className="v">{priceText(r.price, dp, priceStyle)}</span>
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
    <section className="panel book" data-testid="book-panel" data-stale={stale ? 'true' : 'false'}>
      <header className="panel-head">
        <h2>Order book</h2>
        <div className="panel-actions">
          {stale ? (
            <span className="badge warn" data-testid="book-stale" title="The engine is not answering: these levels are the last ones seen">
              STALE · {new Date(dataUpdatedAt).toLocaleTimeString()}
            </span>
          ) : null}
          {!following && ladder ? (
            <button className="ghost small" data-testid="book-centre" onClick={centre} title="Scroll the ladder back to the spread and follow it">
              Centre
            </button>
          ) : null}
          <span className="muted mono" title="snapshot hash">
            {book ? `${book.hash.slice(0, 8)} · ${new Date(dataUpdatedAt).toLocaleTimeString()}` : ''}
          </span>
        </div>
      </header>
      <ErrorLine error={error} />
      {isLoading && !book ? <Empty>Loading book…</Empty> : null}
      <div
        className="panel-body book-scroll"
        ref={box}
        data-testid="book-scroll"
        onScroll={onScroll}
        onWheel={markIntent}
        onTouchMove={markIntent}
        // A press on the box itself is on its scrollbar (a row press prices the ticket and scrolls nothing).
        onPointerDown={(e) => (e.target === e.currentTarget ? markIntent() : undefined)}
        tabIndex={0}
        role="group"
        aria-label="Order book ladder: ↑ and ↓ pick a level, Enter prices the ticket from it, Shift+Enter also takes its size"
        aria-activedescendant={activeIndex >= 0 ? `book-level-${rows[activeIndex]!.side}-${rows[activeIndex]!.r.price}` : undefined}
        onKeyDown={onKey}
      >
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
              <tr className="spread-row" data-testid="book-spread" ref={spreadRow}>
                <td>
                  <span className="dim">Spread </span>
                  <b data-testid="book-spread-value">{ladder.spread !== undefined ? priceText(ladder.spread, dp, priceStyle) : '—'}</b>
                </td>
                <td colSpan={2} className="num">
                  <span className="dim">Mid </span>
                  <b data-testid="book-mid">{ladder.mid !== undefined ? priceText(ladder.mid, dp + 1, priceStyle) : '—'}</b>
                </td>
              </tr>
            </tbody>
            <LadderSide side="bids" empty="No bids">
              {ladder.bids.map((r) => row('bid', r))}
            </LadderSide>
          </table>
        ) : null}
      </div>
    </section>
  );
}

const LADDER_DEPTH = 50;

/**
 * Keeps the spread row in the middle of the ladder's scroll box: after every book update and resize,
 * unless the trader scrolled away (then a Centre button brings it back and resumes following).
 */
function useCentredLadder(ladder: unknown) {
  const box = useRef<HTMLDivElement>(null);
  const spreadRow = useRef<HTMLTableRowElement>(null);
  const [following, setFollowing] = useState(true);
  // Only the trader's own scrolling (wheel, touch, scrollbar drag, paging keys) stops the following:
  // a scroll the layout itself causes (rows added, the box resized) must not.
  const intent = useRef(0);
  const place = useCallback(() => {
    const b = box.current;
    const s = spreadRow.current;
    if (!b || !s) return;
    const head = b.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    b.scrollTop = Math.max(0, Math.round(s.offsetTop - head - (b.clientHeight - head - s.offsetHeight) / 2));
  }, []);
  useLayoutEffect(() => {
    if (following) place();
  }, [ladder, following, place]);
  useEffect(() => {
    const b = box.current;
    if (!b || !following) return;
    const ro = new ResizeObserver(() => place());
    ro.observe(b);
    return () => ro.disconnect();
  }, [following, place]);
  const markIntent = () => {
    intent.current = Date.now();
  };
  const onScroll = () => {
    if (following && Date.now() - intent.current < 800) setFollowing(false);
  };
  const centre = () => {
    setFollowing(true);
    place();
  };
  return { box, spreadRow, following, centre, onScroll, markIntent };
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
