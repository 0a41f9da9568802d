import { useEffect } from 'react';
import { useMarkets, useSelection } from '../api/hooks.js';
import { useUi } from '../state/uiStore.js';
import { isTyping } from '../panels/MarketsPanel.js';
import { MirrorBadge } from '../mirror/MirrorBadge.js';

/**
 * Several markets open at once as tabs above the market view (kept across reloads by the UI store).
 * Ctrl+Tab / Ctrl+Shift+Tab cycle them where the shell lets the page have those keys (Electron); in a
 * browser tab, which keeps Ctrl+Tab for itself, `]` / `[` do the same outside text fields.
 */
export function MarketTabs() {
  const { data: markets } = useMarkets();
  const { market: current } = useSelection();
  const tabs = useUi((s) => s.tabs);
  const favourites = useUi((s) => s.favourites);
  const selectMarket = useUi((s) => s.selectMarket);
  const closeTab = useUi((s) => s.closeTab);
  const cycleTab = useUi((s) => s.cycleTab);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab' && e.ctrlKey) {
        e.preventDefault();
        cycleTab(e.shiftKey ? -1 : 1);
      } else if ((e.key === ']' || e.key === '[') && !isTyping(e) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        cycleTab(e.key === ']' ? 1 : -1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [cycleTab]);

  // The market on screen is always shown as a tab, even before it was picked (a fresh profile's default).
  const ids = current && !tabs.includes(current.condition_id) ? [current.condition_id, ...tabs] : tabs;
  if (ids.length === 0) return null;
  const byId = new Map((markets ?? []).map((m) => [m.condition_id, m]));
  return (
    // A nav of buttons (aria-current on the active one), not an ARIA tablist: each tab also has a close button,
    // which a tablist may not contain.
    <nav className="market-tabs" aria-label="Open markets" data-testid="market-tabs">
      {ids.map((id) => {
        const m = byId.get(id);
        const active = id === current?.condition_id;
        const question = m?.question ?? `${id.slice(0, 10)}…`;
        return (
          <div key={id} className={`market-tab${active ? ' on' : ''}`} data-testid="market-tab" data-condition-id={id} data-active={active}>
            <button aria-current={active ? 'page' : undefined} className="ghost market-tab-pick" data-testid="market-tab-pick" title={question} onClick={() => selectMarket(id)}>
              {favourites.includes(id) ? <span className="star on" aria-label="favourite">★ </span> : null}
              {question}
              {m ? <MirrorBadge market={m} compact /> : null}
            </button>
            <button className="ghost market-tab-close" aria-label={`Close the tab of ${question}`} data-testid="market-tab-close" onClick={() => closeTab(id)}>
              ×
            </button>
          </div>
        );
      })}
    </nav>
  );
}
