import { Tabs } from 'radix-ui';
import { OrderTicket } from '../panels/OrderTicket.js';
import { WalletPanel } from '../panels/WalletPanel.js';
import { ApiKeysPanel } from '../panels/ApiKeysPanel.js';
import { AccountViews } from '../account/AccountViews.js';
import { KeysPanel } from '../keys/KeysPanel.js';
import { InitializeTrading } from '../relayer/InitializeTrading.js';
import { useUi, type SideTab } from '../state/uiStore.js';

const SIDE_TABS: { id: SideTab; label: string; title: string }[] = [
  { id: 'wallet', label: 'Wallet', title: 'Wallet, balance and API keys' },
  { id: 'keys', label: 'Keys at rest', title: 'Import wallets, lock their keys with a passphrase' },
  { id: 'safe', label: 'Safe · relayer', title: 'Optional: deploy a Safe and approve the exchanges through the relayer' },
];

/**
 * The right-hand column: the order ticket first, so its Buy/Sell button is in view at every supported
 * size (1024×700 up), then the wallet, keys and Safe set-up as tabs instead of one long stack (issue 23, item 7).
 * Every tab stays mounted, so a half-typed import or an open wizard survives switching.
 */
export function SideColumn() {
  // Kept across reloads, like the bottom tabs.
  const tab = useUi((s) => s.sideTab);
  const setTab = useUi((s) => s.setSideTab);
  return (
    <aside className="side" data-testid="side-column">
      <OrderTicket />
      <Tabs.Root className="side-tabs panel" value={tab} onValueChange={(v) => setTab(v as SideTab)}>
        <Tabs.List className="tabs" aria-label="Wallet and account">
          {SIDE_TABS.map((t) => (
            <Tabs.Trigger key={t.id} value={t.id} className={tab === t.id ? 'on' : ''} data-testid={`side-tab-${t.id}`} title={t.title}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="wallet" className="side-tab-body" forceMount>
          <WalletPanel />
          <AccountViews />
          <ApiKeysPanel />
        </Tabs.Content>
        <Tabs.Content value="keys" className="side-tab-body" forceMount>
          <KeysPanel />
        </Tabs.Content>
        <Tabs.Content value="safe" className="side-tab-body" forceMount>
          <p className="hint side-note" data-testid="safe-optional">
            Optional for paper trading: orders sign with your wallet (EOA) and trade without a Safe. Deploy a Safe and approve the exchanges
            through the relayer only to try the gasless Safe flow the public site uses.
          </p>
          <InitializeTrading />
        </Tabs.Content>
      </Tabs.Root>
    </aside>
  );
}
