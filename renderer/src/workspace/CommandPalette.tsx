import { useEffect, useState } from 'react';
import { Command } from 'cmdk';
import { useMarkets, useSelection } from '../api/hooks.js';
import { useUi, type BottomTab } from '../state/uiStore.js';

const TAB_COMMANDS: { tab: BottomTab; label: string }[] = [
  { tab: 'orders', label: 'Show open orders' },
  { tab: 'trades', label: 'Show trades' },
  { tab: 'positions', label: 'Show positions' },
  { tab: 'holders', label: 'Show holders' },
  { tab: 'relayer', label: 'Show relayer' },
  { tab: 'admin', label: 'Show admin tools' },
  { tab: 'mirrors', label: 'Search public markets, mirrors and tapes' },
  { tab: 'agents', label: 'Show agents and their audit log' },
  { tab: 'report', label: 'Show the performance report' },
];

/** Ctrl/⌘+K: every market and terminal action by name (cmdk does the fuzzy filtering and keyboard list). */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const { data: markets } = useMarkets();
  const selectMarket = useUi((s) => s.selectMarket);
  const setTab = useUi((s) => s.setBottomTab);
  const confirmOrders = useUi((s) => s.confirmOrders);
  const setConfirmOrders = useUi((s) => s.setConfirmOrders);
  const cvdSafe = useUi((s) => s.cvdSafe);
  const setCvdSafe = useUi((s) => s.setCvdSafe);
  const { market: current } = useSelection();
  const favourites = useUi((s) => s.favourites);
  const toggleFavourite = useUi((s) => s.toggleFavourite);
  const cycleTab = useUi((s) => s.cycleTab);
  const closeTab = useUi((s) => s.closeTab);
  const starred = !!current && favourites.includes(current.condition_id);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        setOpen((o) => !o);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const run = (f: () => void) => () => {
    f();
    setOpen(false);
  };

  return (
    <Command.Dialog open={open} onOpenChange={setOpen} label="Command palette" overlayClassName="dialog-overlay" contentClassName="dialog palette" data-testid="command-palette">
      <Command.Input placeholder="Type a market or a command…" data-testid="palette-input" aria-label="Command" />
      <Command.List>
        <Command.Empty>No match.</Command.Empty>
        <Command.Group heading="Markets">
          {(markets ?? []).map((m) => (
            <Command.Item key={m.condition_id} value={`market ${m.question}`} onSelect={run(() => selectMarket(m.condition_id))} data-testid="palette-market">
              {m.question}
              {m.mirror ? <span className="muted"> · {m.mirror.source.startsWith('tape:') ? 'replay' : 'mirrored'}</span> : null}
              {m.closed ? <span className="muted"> · closed</span> : null}
            </Command.Item>
          ))}
        </Command.Group>
        <Command.Group heading="Tabs and favourites">
          <Command.Item value="next market tab" onSelect={run(() => cycleTab(1))}>
            Next market tab
          </Command.Item>
          <Command.Item value="previous market tab" onSelect={run(() => cycleTab(-1))}>
            Previous market tab
          </Command.Item>
          {current ? (
            <Command.Item value="close market tab" onSelect={run(() => closeTab(current.condition_id))}>
              Close this market’s tab
            </Command.Item>
          ) : null}
          {current ? (
            <Command.Item value="toggle favourite star watchlist" onSelect={run(() => toggleFavourite(current.condition_id))} data-testid="palette-favourite">
              {starred ? 'Remove this market from favourites' : 'Add this market to favourites'}
            </Command.Item>
          ) : null}
        </Command.Group>
        <Command.Group heading="Terminal">
          {TAB_COMMANDS.map((t) => (
            <Command.Item key={t.tab} value={t.label} onSelect={run(() => setTab(t.tab))}>
              {t.label}
            </Command.Item>
          ))}
          <Command.Item value="toggle order confirmation" onSelect={run(() => setConfirmOrders(!confirmOrders))}>
            {confirmOrders ? 'Turn order confirmation off' : 'Turn order confirmation on'}
          </Command.Item>
          <Command.Item value="toggle colour-vision-safe palette" onSelect={run(() => setCvdSafe(!cvdSafe))}>
            {cvdSafe ? 'Use the red/green palette' : 'Use the colour-vision-safe palette'}
          </Command.Item>
        </Command.Group>
      </Command.List>
    </Command.Dialog>
  );
}
