import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useHolders, usePositions, useSelection, useSession } from '../api/hooks.js';
import { describeError, isMissingRoute } from '../api/describeError.js';
import { notify } from '../notify/notify.js';
import { toast } from 'sonner';
import { fixedDecimals, shortAddress } from '../format.js';
import { positionOutcome } from '../notify/resolution.js';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../components/DataTable.js';
import type { Position } from '../api/types.js';
import { useUi } from '../state/uiStore.js';
import { presetSize } from '../ticket/sellable.js';

const num = (v: number | undefined, dp = 2) => (typeof v === 'number' && Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: dp, maximumFractionDigits: dp }) : '—');

export function PositionsPanel() {
  const session = useSession();
  const positions = usePositions(session.address);
  const qc = useQueryClient();
  const selectMarket = useUi((st) => st.selectMarket);
  const prefillTicket = useUi((st) => st.prefillTicket);
  // The engine's POST /redeem pays out a resolved market's winning shares (defect 5).
  const redeem = useMutation({
    mutationFn: (conditionId: string) => session.trader!.redeem(conditionId),
    onSuccess: (r) => {
      // POST /redeem answers { payout } in collateral (decimal text): say what was paid, not a fixed line.
      const payout = r && typeof r === 'object' && 'payout' in r ? String((r as { payout: unknown }).payout) : '0';
      toast.success('Redeemed', { description: `Paid ${fixedDecimals(payout, 2)} USDC for the winning shares.` });
    },
    onError: (e) => {
      const d = describeError(e);
      notify.rejected(d.code, d.message);
    },
    onSettled: () => void qc.invalidateQueries(),
  });
  const columns: ColumnDef<Position, unknown>[] = [
    { id: 'market', header: 'Market', accessorKey: 'title', meta: { className: 'ellipsis' } },
    { id: 'outcome', header: 'Outcome', accessorKey: 'outcome' },
    { id: 'size', header: 'Shares', accessorKey: 'size', meta: { num: true }, cell: (c) => num(c.row.original.size) },
    { id: 'avg', header: 'Avg', accessorKey: 'avgPrice', meta: { num: true }, cell: (c) => num(c.row.original.avgPrice, 4) },
    { id: 'mark', header: 'Mark', accessorKey: 'curPrice', meta: { num: true }, cell: (c) => num(c.row.original.curPrice, 4) },
    { id: 'value', header: 'Value', accessorKey: 'currentValue', meta: { num: true }, cell: (c) => num(c.row.original.currentValue) },
    {
      id: 'pnl',
      header: 'P&L',
      accessorKey: 'cashPnl',
      meta: { num: true },
      cell: (c) => {
        const p = c.row.original;
        return (
          <span className={p.cashPnl >= 0 ? 'up' : 'down'}>
            {num(p.cashPnl)} <span className="dim">({num(p.percentPnl, 1)}%)</span>
          </span>
        );
      },
    },
    { id: 'realized', header: 'Realized', accessorKey: 'realizedPnl', meta: { num: true }, cell: (c) => num(c.row.original.realizedPnl) },
    {
      id: 'actions',
      header: '',
      accessorFn: (p) => (p.redeemable ? 1 : 0),
      meta: { className: 'actions' },
      cell: (c) => {
        const p = c.row.original;
        // A resolved position either won (something to redeem) or lost (nothing: issue 23, item 3).
        if (positionOutcome(p) === 'lost') return <span className="badge dim" data-testid="position-lost">Lost</span>;
        if (p.redeemable) {
          return (
            <>
              <span className="badge ok">WON</span>{' '}
              <button className="small" data-testid="redeem" disabled={!session.trader?.hasCredentials || redeem.isPending} onClick={() => redeem.mutate(p.conditionId)}>
                Redeem
              </button>
            </>
          );
        }
        // Sell opens a limit SELL of the whole position; Close a market SELL of it (issue 23, item 9).
        const sell = (mode: 'limit' | 'market') => {
          selectMarket(p.conditionId, p.outcomeIndex);
          prefillTicket({ side: 'SELL', price: '', size: presetSize(p.size.toFixed(6), 100), mode });
        };
        return (
          <>
            <button className="small" data-testid="position-sell" title="Sell this position at a limit price" onClick={() => sell('limit')}>
              Sell
            </button>{' '}
            <button className="small" data-testid="position-close" title="Sell the whole position at market (fill and kill)" onClick={() => sell('market')}>
              Close
            </button>
          </>
        );
      },
    },
  ];
  if (!session.address) return <Empty>Select a wallet to see its positions.</Empty>;
  if (positions.error && isMissingRoute(positions.error)) return <Empty>Positions are not available on this engine yet.</Empty>;
  const rows = positions.data ?? [];
  return (
    <div className="tab-body" data-testid="positions">
      <ErrorLine error={positions.error} />
      {rows.length === 0 && positions.isSuccess ? <Empty testId="positions-empty">No positions.</Empty> : null}
      {rows.length > 0 ? (
        <DataTable
          data={rows}
          columns={columns}
          compact={false}
          testId="positions-table"
          empty="No positions."
          getRowId={(p) => p.asset}
          rowProps={(p) => ({ 'data-testid': 'position-row', 'data-asset': p.asset, 'data-size': String(p.size) })}
        />
      ) : null}
    </div>
  );
}

type Holder = NonNullable<ReturnType<typeof useHolders>['data']>[number]['holders'][number];

const holderColumns: ColumnDef<Holder, unknown>[] = [
  // The data service lists holders largest first: the rank is that order.
  { id: 'rank', header: '#', accessorFn: (_h, i) => i + 1, meta: { className: 'dim' } },
  { id: 'wallet', header: 'Wallet', accessorFn: (h) => h.pseudonym || shortAddress(h.proxyWallet), meta: { className: 'mono' }, cell: (c) => <span title={c.row.original.proxyWallet}>{c.getValue() as string}</span> },
  { id: 'amount', header: 'Shares', accessorKey: 'amount', meta: { num: true }, cell: (c) => num(c.row.original.amount) },
];

export function HoldersPanel() {
  const { market } = useSelection();
  const holders = useHolders(market?.condition_id);
  if (!market) return <Empty>Select a market.</Empty>;
  if (holders.error && isMissingRoute(holders.error)) return <Empty>Holders are not available on this engine yet.</Empty>;
  const groups = holders.data ?? [];
  return (
    <div className="tab-body holders" data-testid="holders">
      <ErrorLine error={holders.error} />
      {groups.length === 0 && holders.isSuccess ? <Empty testId="holders-empty">Nobody holds this market yet.</Empty> : null}
      <div className="holder-groups">
        {groups.map((g) => {
          const idx = Number(g.token.split(':').pop());
          return (
            <div key={g.token} className="holder-group">
              <h3>{market.tokens[idx]?.outcome ?? g.token}</h3>
              <DataTable
                data={g.holders}
                columns={holderColumns}
                testId="holders-table"
                empty="Nobody holds this outcome."
                getRowId={(h) => h.proxyWallet}
                rowProps={(h) => ({ 'data-testid': 'holder-row', 'data-wallet': h.proxyWallet })}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
