import { useMemo, useState } from 'react';
import { Dialog, Tabs } from 'radix-ui';
import type { ColumnDef } from '@tanstack/react-table';
import { useBalance, useMyTrades, usePositions, useSession } from '../api/hooks.js';
import type { Position, TradeRecord } from '../api/types.js';
import type { Activity } from '../../../engine/client/index.js';
import { baseUnitsToDisplay, fixedDecimals, shortAddress, timeOf } from '../format.js';
import { activityCsv, positionsCsv, tradesCsv } from './csv.js';
import { download } from './download.js';
import { pnlClass, signedUsd, useClosedPositions, usePortfolio } from './usePortfolio.js';
import type { ClosedPosition } from '../../../engine/client/index.js';
import { DataTable } from '../components/DataTable.js';
import { explainFill } from './fillExplainer.js';
import { myFill } from './myFill.js';
import { positionOutcome } from '../notify/resolution.js';
import { useMarketLabels } from '../panels/useMarketLabels.js';
import { useActivity, useOrderHistory, useRedeem } from './useAccountData.js';
import { historyRows, useRejections, type HistoryRow } from './orderHistory.js';
import './account.css';

const n2 = (v: number) => v.toFixed(2);
const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;

/**
 * The account at a glance (balance split into available and reserved) and, in a dialog, the account
 * views: positions with PnL and Redeem, trade history with the fill explainer, activity, CSV export.
 */
export function AccountViews() {
  const session = useSession();
  const balance = useBalance(session.trader);
  const [open, setOpen] = useState(false);
  const picture = usePortfolio();
  const total = balance.data ? BigInt(balance.data.balance) : undefined;
  const reserved = balance.data ? BigInt(balance.data.reserved ?? '0') : undefined;
  return (
    <section className="panel account-summary" data-testid="account-summary">
      <header className="panel-head">
        <h2>Account</h2>
        <div className="panel-actions">
          <Dialog.Root open={open} onOpenChange={setOpen}>
            <Dialog.Trigger asChild>
              <button className="ghost" data-testid="account-open" disabled={!session.address}>
                Positions · trades · activity
              </button>
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="account-overlay" />
              <Dialog.Content className="account-dialog" data-testid="account-dialog" aria-describedby={undefined}>
                <Dialog.Title>Account · {shortAddress(session.address ?? '')}</Dialog.Title>
                {session.address ? <AccountTabs address={session.address} /> : null}
                <Dialog.Close asChild>
                  <button className="account-close" aria-label="Close">
                    ×
                  </button>
                </Dialog.Close>
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        </div>
      </header>
      <div className="panel-body">
        <dl className="account-split">
          <dt>Available</dt>
          <dd data-testid="balance-available">{total !== undefined && reserved !== undefined ? baseUnitsToDisplay(String(total - reserved)) : '—'}</dd>
          <dt>Reserved by orders</dt>
          <dd data-testid="balance-reserved">{reserved !== undefined ? baseUnitsToDisplay(String(reserved)) : '—'}</dd>
          <dt>Total USDC</dt>
          <dd data-testid="balance-total">{total !== undefined ? baseUnitsToDisplay(String(total)) : '—'}</dd>
          <dt>Positions at mark</dt>
          <dd data-testid="account-positions-value">{picture ? fixedDecimals(picture.positionsValue, 2) : '—'}</dd>
          <dt>Portfolio value</dt>
          <dd data-testid="account-portfolio-value">{picture ? fixedDecimals(picture.value, 2) : '—'}</dd>
          <dt title="Unrealised on open positions + realised on every exit (sells, merges, redemptions)">Total PnL</dt>
          <dd data-testid="account-total-pnl" className={picture ? pnlClass(picture.totalPnl) : ''}>{picture ? signedUsd(picture.totalPnl) : '—'}</dd>
          <dt>Day PnL</dt>
          <dd data-testid="account-day-pnl" className={picture ? pnlClass(picture.dayPnl) : ''}>{picture ? signedUsd(picture.dayPnl) : '—'}</dd>
        </dl>
      </div>
    </section>
  );
}

function AccountTabs({ address }: { address: string }) {
  const session = useSession();
  const positions = usePositions(address);
  const trades = useMyTrades(session.trader);
  const activity = useActivity(address);
  const closed = useClosedPositions(address);
  const { question } = useMarketLabels();
  return (
    <Tabs.Root defaultValue="positions" className="account-tabs">
      <Tabs.List className="tabs" aria-label="Account views">
        <Tabs.Trigger value="positions" data-testid="account-tab-positions">Positions</Tabs.Trigger>
        <Tabs.Trigger value="trades" data-testid="account-tab-trades">Trade history</Tabs.Trigger>
        <Tabs.Trigger value="history" data-testid="account-tab-history">Order history</Tabs.Trigger>
        <Tabs.Trigger value="closed" data-testid="account-tab-closed">Closed positions</Tabs.Trigger>
        <Tabs.Trigger value="activity" data-testid="account-tab-activity">Activity</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="positions">
        <div className="account-toolbar">
          <button data-testid="export-positions" disabled={!positions.data?.length} onClick={() => download('positions.csv', positionsCsv(positions.data ?? []))}>
            Export CSV
          </button>
        </div>
        <PositionsTable rows={positions.data ?? []} />
      </Tabs.Content>
      <Tabs.Content value="trades">
        <div className="account-toolbar">
          <button data-testid="export-trades" disabled={!trades.data?.length} onClick={() => download('trades.csv', tradesCsv(trades.data ?? [], address, question))}>
            Export CSV
          </button>
        </div>
        <TradesTable rows={trades.data ?? []} address={address} />
      </Tabs.Content>
      <Tabs.Content value="history">
        <OrderHistoryTable address={address} />
      </Tabs.Content>
      <Tabs.Content value="closed">
        <ClosedPositionsTable rows={closed.data ?? []} />
      </Tabs.Content>
      <Tabs.Content value="activity">
        <div className="account-toolbar">
          <button data-testid="export-activity" disabled={!activity.data?.length} onClick={() => download('activity.csv', activityCsv(activity.data ?? []))}>
            Export CSV
          </button>
        </div>
        <ActivityTable rows={activity.data ?? []} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

function RedeemButton({ p }: { p: Position }) {
  const redeem = useRedeem();
  if (positionOutcome(p) === 'lost') return <span className="dim" data-testid="position-lost">Lost</span>;
  if (!p.redeemable) return <span className="dim">—</span>;
  return (
    <span>
      <button className="redeem" data-testid="redeem" disabled={redeem.isPending || redeem.isSuccess} onClick={() => redeem.mutate(p.conditionId)}>
        {redeem.isSuccess ? `Paid ${redeem.data.payout}` : redeem.isPending ? 'Redeeming…' : 'Redeem'}
      </button>
      {redeem.error ? <span className="down" data-testid="redeem-error"> {(redeem.error as Error).message}</span> : null}
    </span>
  );
}

function PositionsTable({ rows }: { rows: Position[] }) {
  const columns = useMemo<ColumnDef<Position, unknown>[]>(
    () => [
      { header: 'Market', accessorKey: 'title' },
      { header: 'Outcome', accessorKey: 'outcome' },
      { header: 'Shares', accessorKey: 'size', meta: { num: true }, cell: (c) => n2(c.getValue() as number) },
      { header: 'Avg', accessorKey: 'avgPrice', meta: { num: true }, cell: (c) => (c.getValue() as number).toFixed(3) },
      { header: 'Mark', accessorKey: 'curPrice', meta: { num: true }, cell: (c) => (c.getValue() as number).toFixed(3) },
      { header: 'Value', accessorKey: 'currentValue', meta: { num: true }, cell: (c) => n2(c.getValue() as number) },
      { header: 'Unrealised', accessorKey: 'cashPnl', meta: { num: true }, cell: (c) => <span className={(c.getValue() as number) >= 0 ? 'up' : 'down'}>{signed(c.getValue() as number)}</span> },
      { header: 'Realised', accessorKey: 'realizedPnl', meta: { num: true }, cell: (c) => signed(c.getValue() as number) },
      { header: 'Redeem', id: 'redeem', enableSorting: false, cell: (c) => <RedeemButton p={c.row.original} /> },
    ],
    [],
  );
  return (
    <DataTable
      data={rows}
      columns={columns}
      testId="account-positions"
      empty="No positions."
      rowProps={(p) => ({ 'data-testid': 'account-position-row', 'data-asset': p.asset, 'data-size': String(p.size), 'data-redeemable': String(p.redeemable) })}
    />
  );
}

function TradesTable({ rows, address }: { rows: TradeRecord[]; address: string }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const { question } = useMarketLabels();
  const columns = useMemo<ColumnDef<TradeRecord, unknown>[]>(
    () => [
      { header: 'Time', id: 'time', accessorFn: (t) => Number(t.match_time), cell: (c) => timeOf(c.row.original.match_time) },
      { header: 'Trade', accessorKey: 'id', sortingFn: 'text', cell: (c) => <code title={c.getValue() as string}>{(c.getValue() as string).slice(-10)}</code> },
      { header: 'Market', id: 'market', accessorFn: (t) => question(t.market) },
      // My side of the fill, as every trade view and the CSV show it (myFill).
      { header: 'Outcome', id: 'outcome', accessorFn: (t) => myFill(t, address).outcome },
      { header: 'Side', id: 'side', accessorFn: (t) => myFill(t, address).side },
      { header: 'Price', id: 'price', accessorFn: (t) => myFill(t, address).price, meta: { num: true } },
      { header: 'Size', id: 'size', accessorFn: (t) => myFill(t, address).size, meta: { num: true } },
      { header: 'Role', id: 'role', accessorFn: (t) => myFill(t, address).role },
      {
        header: 'Fill',
        id: 'explain',
        enableSorting: false,
        cell: (c) => {
          const t = c.row.original;
          const shown = openId === t.id;
          return (
            <span>
              <button className="link" data-testid="fill-explain-toggle" onClick={() => setOpenId(shown ? null : t.id)}>
                {shown ? 'hide' : 'explain'}
              </button>
              {shown ? <FillDetails t={t} address={address} /> : null}
            </span>
          );
        },
      },
    ],
    [openId, address, question],
  );
  return <DataTable data={rows} columns={columns} testId="account-trades" empty="No trades yet." rowProps={(t) => ({ 'data-testid': 'account-trade-row', 'data-trade-id': t.id, 'data-role': t.trader_side, 'data-time': String(t.match_time) })} />;
}

function FillDetails({ t, address }: { t: TradeRecord; address: string }) {
  const e = explainFill(t, address);
  return (
    <div className="fill-explainer" data-testid="fill-explainer" data-role={e.role} data-fee={e.fee}>
      <p>{e.summary}</p>
      <ul>
        {e.legs.map((l) => (
          <li key={l.orderId}>
            {l.mine ? 'your ' : ''}resting {l.side} {l.outcome} order <code>{l.orderId}</code> by {shortAddress(l.maker)}: {l.size} @ {l.price}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Every order: open, filled, cancelled and expired from the exchange, rejected from this terminal. */
function OrderHistoryTable({ address }: { address: string }) {
  const history = useOrderHistory();
  const rejected = useRejections((st) => st.byWallet[address.toLowerCase()]);
  const { question, outcome } = useMarketLabels();
  const rows = useMemo(() => historyRows(history.data ?? [], rejected ?? [], outcome), [history.data, rejected, outcome]);
  const columns = useMemo<ColumnDef<HistoryRow, unknown>[]>(
    () => [
      { header: 'Time', accessorKey: 'at', cell: (c) => timeOf(Math.floor((c.getValue() as number) / 1000)) },
      { header: 'Market', id: 'market', accessorFn: (r) => question(r.market) },
      { header: 'Outcome', accessorKey: 'outcome' },
      { header: 'Side', accessorKey: 'side' },
      { header: 'Price', accessorKey: 'price', meta: { num: true } },
      { header: 'Size', accessorKey: 'size', meta: { num: true }, cell: (c) => fixedDecimals(c.getValue() as string, 2) },
      { header: 'Filled', accessorKey: 'filled', meta: { num: true }, cell: (c) => fixedDecimals(c.getValue() as string, 2) },
      { header: 'Type', accessorKey: 'type' },
      { header: 'Status', accessorKey: 'status', cell: (c) => <span data-status={c.getValue() as string}>{c.getValue() as string}</span> },
      { header: 'Reason', accessorKey: 'reason', meta: { className: 'wrap' } },
    ],
    [question],
  );
  return <DataTable data={rows} columns={columns} testId="account-order-history" empty="No orders yet." rowProps={(r) => ({ 'data-testid': 'order-history-row', 'data-status': r.status })} />;
}

/** Sold, merged and redeemed positions stay visible with what they realised (issue 23, item 10). */
function ClosedPositionsTable({ rows }: { rows: ClosedPosition[] }) {
  const columns = useMemo<ColumnDef<ClosedPosition, unknown>[]>(
    () => [
      { header: 'Closed', accessorKey: 'timestamp', cell: (c) => timeOf(c.getValue() as number) },
      { header: 'Market', accessorKey: 'title' },
      { header: 'Outcome', accessorKey: 'outcome' },
      { header: 'Bought', accessorKey: 'totalBought', meta: { num: true }, cell: (c) => n2(c.getValue() as number) },
      { header: 'Avg', accessorKey: 'avgPrice', meta: { num: true }, cell: (c) => (c.getValue() as number).toFixed(3) },
      { header: 'Exit', accessorKey: 'curPrice', meta: { num: true }, cell: (c) => (c.getValue() as number).toFixed(3) },
      { header: 'Realised', accessorKey: 'realizedPnl', meta: { num: true }, cell: (c) => <span className={(c.getValue() as number) >= 0 ? 'up' : 'down'}>{signed(c.getValue() as number)}</span> },
    ],
    [],
  );
  return <DataTable data={rows} columns={columns} testId="account-closed-positions" empty="No closed positions yet." rowProps={(p) => ({ 'data-testid': 'closed-position-row', 'data-asset': p.asset })} />;
}

function ActivityTable({ rows }: { rows: Activity[] }) {
  const columns = useMemo<ColumnDef<Activity, unknown>[]>(
    () => [
      { header: 'Time', accessorKey: 'timestamp', cell: (c) => timeOf(c.getValue() as number) },
      { header: 'Type', accessorKey: 'type' },
      { header: 'Market', accessorKey: 'title' },
      { header: 'Outcome', accessorKey: 'outcome' },
      { header: 'Side', accessorKey: 'side' },
      { header: 'Shares', accessorKey: 'size', meta: { num: true }, cell: (c) => n2(c.getValue() as number) },
      { header: 'Price', accessorKey: 'price', meta: { num: true } },
      { header: 'USDC', accessorKey: 'usdcSize', meta: { num: true }, cell: (c) => n2(c.getValue() as number) },
    ],
    [],
  );
  return <DataTable data={rows} columns={columns} testId="account-activity" empty="No activity yet." rowProps={(a) => ({ 'data-testid': 'activity-row', 'data-type': a.type })} />;
}
