import { useEffect } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { useExchangeConfig, useBalance, useEngineHealth, useSession } from './api/hooks.js';
import { StatusBar } from './workspace/StatusBar.js';
import { ToastArea } from './notify/ToastArea.js';
import { PortfolioBadge } from './account/PortfolioBadge.js';
import { ShortcutHelp } from './workspace/ShortcutHelp.js';
import { CommandPalette } from './workspace/CommandPalette.js';
import { useOrderWatcher } from './notify/useOrderWatcher.js';
import { useUi, type BottomTab } from './state/uiStore.js';
import { MarketsPanel, isTyping } from './panels/MarketsPanel.js';
import { MarketHeader } from './panels/MarketHeader.js';
import { OrderBookPanel } from './panels/OrderBookPanel.js';
import { TapePanel } from './panels/TapePanel.js';
import { OpenOrdersPanel } from './panels/OpenOrdersPanel.js';
import { MyTradesPanel } from './panels/MyTradesPanel.js';
import { HoldersPanel, PositionsPanel } from './panels/PositionsPanel.js';
import { RelayerPanel } from './panels/RelayerPanel.js';
import { AdminPanel } from './panels/AdminPanel.js';
import { AgentsPanel } from './agents/AgentsPanel.js';
import { ReportPanel } from './report/ReportPanel.js';
import { MirrorsPanel } from './mirror/MirrorsPanel.js';
import { ErrorLine } from './components/ErrorLine.js';
import { StreamIndicator } from './streams/StreamIndicator.js';
import { chainName, shortAddress } from './format.js';
import { PriceChart } from './chart/PriceChart.js';
import { PaperBanner } from './paper/PaperBanner.js';
import { Onboarding } from './onboarding/Onboarding.js';
import { MarketTabs } from './watchlist/MarketTabs.js';
import { SideColumn } from './workspace/SideColumn.js';
import { SystemPauseBanner } from './workspace/SystemPauseBanner.js';

const TABS: { id: BottomTab; label: string; key: string }[] = [
  { id: 'orders', label: 'Open orders', key: '1' },
  { id: 'trades', label: 'Trades', key: '2' },
  { id: 'positions', label: 'Positions', key: '3' },
  { id: 'holders', label: 'Holders', key: '4' },
  { id: 'relayer', label: 'Relayer', key: '5' },
  { id: 'admin', label: 'Admin', key: '6' },
  { id: 'mirrors', label: 'Mirrors', key: '7' },
  { id: 'agents', label: 'Agents', key: '8' },
  { id: 'report', label: 'Report', key: '9' },
];

export function App() {
  const tab = useUi((s) => s.bottomTab);
  const setTab = useUi((s) => s.setBottomTab);
  const cvdSafe = useUi((s) => s.cvdSafe);
  useOrderWatcher();
  // The split between the market view and the bottom tabs is the trader's, kept across reloads.
  const split = useDefaultLayout({ id: 'sandbox-terminal.split', storage: localStorage });

  // 1–9 switch the bottom tabs (outside text fields).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = TABS.find((x) => x.key === e.key);
      if (t) setTab(t.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setTab]);

  return (
    <div className={`terminal${cvdSafe ? ' cvd-safe' : ''}`}>
      <TopBar />
      <SystemPauseBanner />
      <PaperBanner />
      <Onboarding />
      {/* First in the DOM after the bars (the grid places it on the right): the ticket comes early in the tab order. */}
      <SideColumn />
      <MarketsPanel />
      <Group orientation="vertical" className="main-split" data-testid="main-split" defaultLayout={split.defaultLayout} onLayoutChanged={split.onLayoutChanged}>
      <Panel id="center" minSize="30%" defaultSize="68%">
      <main className="center">
        <MarketTabs />
        <MarketHeader />
        <div className="slot-chart" data-slot="chart">
          <PriceChart />
        </div>
        <div className="book-tape">
          <OrderBookPanel />
          <TapePanel />
        </div>
      </main>
      </Panel>
      <Separator className="split-handle" data-testid="split-handle" aria-label="Resize the bottom tabs" />
      <Panel id="bottom" minSize="15%" defaultSize="32%">
      <section className="bottom panel" data-testid="bottom-tabs">
        <nav className="tabs" role="tablist">
          {TABS.map((t) => (
            <button key={t.id} role="tab" aria-selected={tab === t.id} className={tab === t.id ? 'on' : ''} data-testid={`tab-${t.id}`} onClick={() => setTab(t.id)}>
              {t.label}
              <kbd>{t.key}</kbd>
            </button>
          ))}
        </nav>
        <div className="tab-content">
          {tab === 'orders' ? <OpenOrdersPanel /> : null}
          {tab === 'trades' ? <MyTradesPanel /> : null}
          {tab === 'positions' ? <PositionsPanel /> : null}
          {tab === 'holders' ? <HoldersPanel /> : null}
          {tab === 'relayer' ? <RelayerPanel /> : null}
          {tab === 'admin' ? <AdminPanel /> : null}
          {tab === 'mirrors' ? <MirrorsPanel /> : null}
          {tab === 'agents' ? <AgentsPanel /> : null}
          {tab === 'report' ? <ReportPanel /> : null}
          {/* Slot "account-tabs": h14b's activity / trade-history / keys views add TABS entries rendered here. */}
        </div>
      </section>
      </Panel>
      </Group>
      <StatusBar />
      <ShortcutHelp />
      <CommandPalette />
      {/* Slot "overlays": h14b's onboarding and reset dialogs mount here. */}
      <ToastArea />
    </div>
  );
}

function TopBar() {
  const config = useExchangeConfig();
  const health = useEngineHealth();
  const cvdSafe = useUi((s) => s.cvdSafe);
  const setCvdSafe = useUi((s) => s.setCvdSafe);
  const priceStyle = useUi((s) => s.priceStyle);
  const setPriceStyle = useUi((s) => s.setPriceStyle);
  const session = useSession();
  const balance = useBalance(session.trader);
  return (
    <header className="topbar">
      <div className="brand">
        <svg viewBox="0 0 32 32" width="18" height="18" aria-hidden>
          <path d="M5 23 L12 14 L18 18 L27 8" stroke="currentColor" strokeWidth="3.2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        SANDBOX<span>EXCHANGE</span>
      </div>
      <div className="conn" data-testid="engine-status">
        {health.isError ? (
          <>
            <span className="dot bad" /> <span data-testid="engine-down">engine down — not reachable</span>
          </>
        ) : config.data ? (
          <>
            <span className="dot ok" /> <span title={`chain id ${config.data.chainId}`}>
              engine<span className="conn-chain"> · {chainName(config.data.chainId, config.data.rpcUrl)}</span>
            </span>
          </>
        ) : config.error ? (
          <>
            <span className="dot bad" /> <ErrorLine error={config.error} />
          </>
        ) : (
          <>
            <span className="dot" /> connecting…
          </>
        )}
      </div>
      <StreamIndicator />
      <div className="spacer" />
      <div className="keys-hint dim">
        <kbd>/</kbd> search <kbd>B</kbd>/<kbd>S</kbd> side <kbd>↑↓</kbd> tick <kbd>1-9</kbd> tabs <kbd>?</kbd> help
      </div>
      <label className="check" title="Prices in cents (38¢), as on Polymarket's site, instead of decimals (0.38); orders are the same">
        <input type="checkbox" checked={priceStyle === 'cents'} onChange={(e) => setPriceStyle(e.target.checked ? 'cents' : 'decimal')} data-testid="price-style-toggle" /> <span className="wide-only">Prices in </span>¢
      </label>
      <label className="check" title="Blue and orange instead of green and red, for colour-vision deficiency">
        <input type="checkbox" checked={cvdSafe} onChange={(e) => setCvdSafe(e.target.checked)} data-testid="cvd-toggle" /> Colour-blind<span className="wide-only"> palette</span>
      </label>
      <div className="who" data-testid="topbar-wallet">
        <span className="dim">{session.label}</span>
        <span className="mono">{shortAddress(session.address)}</span>
        {/* The portfolio value includes the cash (shown in its tooltip and the Account panel). */}
        {balance.data ? <PortfolioBadge /> : null}
      </div>
    </header>
  );
}
