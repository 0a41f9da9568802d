import { useEffect, useMemo, useRef } from 'react';
import { Empty, Panel } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useMarkets, useSelection } from '../api/hooks.js';
import { useUi } from '../state/uiStore.js';
import { fixedDecimals, tickDecimals } from '../format.js';
import type { Market } from '../api/types.js';
import { Watchlist } from '../watchlist/Watchlist.js';
import { MirrorBadge } from '../mirror/MirrorBadge.js';

function matches(m: Market, filter: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return m.question.toLowerCase().includes(f) || m.condition_id.toLowerCase().startsWith(f) || m.tokens.some((t) => t.outcome.toLowerCase().includes(f));
}

export function MarketsPanel() {
  const { data: markets, error, isLoading } = useMarkets();
  const { market: selected } = useSelection();
  const filter = useUi((s) => s.marketFilter);
  const setFilter = useUi((s) => s.setMarketFilter);
  const selectMarket = useUi((s) => s.selectMarket);
  const setTab = useUi((s) => s.setBottomTab);
  const favourites = useUi((s) => s.favourites);
  const searchRef = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => (markets ?? []).filter((m) => matches(m, filter)), [markets, filter]);

  // "/" jumps to the market search from anywhere, like most trading terminals.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !isTyping(e)) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const move = (delta: number) => {
    if (!shown.length) return;
    const i = shown.findIndex((m) => m.condition_id === selected?.condition_id);
    const next = shown[Math.max(0, Math.min(shown.length - 1, (i < 0 ? 0 : i) + delta))];
    if (next) selectMarket(next.condition_id);
  };

  return (
    <Panel
      title="Markets"
      className="markets"
      testId="markets-panel"
      actions={
        <>
          <span className="muted">{markets ? `${markets.length}` : ''}</span>
          <button
            className="ghost small"
            title="Search the public markets and mirror one here (Mirrors tab, 7)"
            data-testid="open-public-markets"
            onClick={() => {
              setTab('mirrors');
              // The tab renders on the next frame; then the words go straight into the public search.
              requestAnimationFrame(() => document.getElementById('public-search')?.focus());
            }}
          >
            + Public
          </button>
        </>
      }
    >
      <Watchlist />
      <input
        ref={searchRef}
        className="search"
        placeholder="Search markets  ( / )"
        value={filter}
        data-testid="market-search"
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            move(e.key === 'ArrowDown' ? 1 : -1);
          } else if (e.key === 'Escape') {
            setFilter('');
            e.currentTarget.blur();
          }
        }}
      />
      <ErrorLine error={error} />
      {isLoading ? <Empty>Loading markets…</Empty> : null}
      {markets && shown.length === 0 ? <Empty>No market matches “{filter}”.</Empty> : null}
      <ul className="market-list" role="listbox" aria-label="Markets" tabIndex={0} onKeyDown={(e) => (e.key === 'ArrowDown' ? move(1) : e.key === 'ArrowUp' ? move(-1) : undefined)}>
        {shown.map((m) => {
          const dp = tickDecimals(m.minimum_tick_size);
          const active = m.condition_id === selected?.condition_id;
          return (
            <li
              key={m.condition_id}
              role="option"
              aria-selected={active}
              className={`market-row ${active ? 'active' : ''}`}
              data-testid="market-row"
              data-condition-id={m.condition_id}
              onClick={() => selectMarket(m.condition_id)}
            >
              <div className="market-q">
                {favourites.includes(m.condition_id) ? <span className="star on" aria-label="favourite">★ </span> : null}
                {m.question}
              </div>
              <div className="market-meta">
                {m.tokens.map((t) => (
                  <span key={t.token_id} className={`chip outcome-${t.outcome.toLowerCase() === 'no' ? 'no' : 'yes'}`}>
                    {t.outcome} {fixedDecimals(t.price, dp)}
                  </span>
                ))}
                <span className="chip dim" title="tick size">
                  tick {String(m.minimum_tick_size)}
                </span>
                <MirrorBadge market={m} />
                {m.neg_risk ? (
                  <span className="badge neg" data-testid="neg-risk-badge">
                    NEG RISK
                  </span>
                ) : null}
                {m.paused ? <span className="badge warn">PAUSED</span> : null}
                {m.closed ? <span className="badge dim">CLOSED</span> : null}
              </div>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

export function isTyping(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
}
