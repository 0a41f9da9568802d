import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../components/DataTable.js';
import { idColumn, legColumns } from '../components/LegColumns.js';
import { useMarkets, useOpenOrders, useQueuePositions, useSession } from '../api/hooks.js';
import { isMissingRoute } from '../api/describeError.js';
import { fixedDecimals, shortRecordId, timeOf, toMicros } from '../format.js';
import { notify } from '../notify/notify.js';
import { cancelledHere, orderLabel } from '../notify/useOrderWatcher.js';
import { formatUnits } from '../../../engine/protocol/amounts.js';
import type { CancelResult, OrderRecord, QueueEntry } from '../api/types.js';
import { useMarketLabels } from './useMarketLabels.js';

/** What a cancel takes off the book: the size not yet filled. */
const remaining = (o: OrderRecord) => formatUnits((toMicros(o.originalSize) ?? 0n) - (toMicros(o.sizeMatched) ?? 0n));

export function OpenOrdersPanel() {
  const session = useSession();
  const { question, outcome: outcomeOf, tick } = useMarketLabels();
  const orders = useOpenOrders(session.trader);
  const { data: markets } = useMarkets();
  const queue = useQueuePositions(session.trader);
  const queueOf = new Map((queue.data ?? []).map((q) => [q.order_id, q]));
  const qc = useQueryClient();
  const after = () => {
    void qc.invalidateQueries({ queryKey: ['trader'] });
    void qc.invalidateQueries({ queryKey: ['book'] });
  };
  const toastCancelled = (r: CancelResult) => {
    for (const id of r.canceled) cancelledHere.add(id);
    // Named by what they were (side, size, price, market), not by id (issue 23, item 6).
    const byId = new Map((orders.data ?? []).map((o) => [o.id, o]));
    const named = r.canceled.map((id) => {
      const o = byId.get(id);
      return o ? orderLabel(o, markets, remaining(o)) : `order ${shortRecordId(id)}`;
    });
    if (named.length === 1) notify.cancelled(named[0]!);
    else if (named.length > 1) notify.cancelled(`${named.length} orders: ${named.slice(0, 3).join('; ')}${named.length > 3 ? '; …' : ''}`);
  };
  const cancel = useMutation({ mutationFn: (id: string) => session.trader!.cancel(id), onSuccess: toastCancelled, onSettled: after });
  const cancelAll = useMutation({ mutationFn: () => session.trader!.cancelAll(), onSuccess: toastCancelled, onSettled: after });

  const columns: ColumnDef<OrderRecord, unknown>[] = [
    ...legColumns<OrderRecord>((o) => {
      const tk = tick(o.market);
      return { time: o.createdAt, market: question(o.market), outcome: outcomeOf(o.market, o.outcome), side: o.side, price: o.price, size: o.originalSize, ...(tk ? { tick: tk } : {}) };
    }),
    { id: 'filled', header: 'Filled', accessorFn: (o) => Number(o.sizeMatched), meta: { num: true }, cell: (c) => fixedDecimals(c.row.original.sizeMatched, 2) },
    {
      id: 'queue',
      header: () => <span title="Shares ahead of the order at its price (time priority), of the level's total">Queue</span>,
      accessorFn: (o) => Number(queueOf.get(o.id)?.ahead ?? Number.POSITIVE_INFINITY),
      meta: { num: true },
      cell: (c) => <QueueCell entry={queueOf.get(c.row.original.id)} />,
    },
    { id: 'type', header: 'Type', accessorKey: 'type' },
    {
      id: 'expires',
      header: 'Expires',
      accessorFn: (o) => (o.expiration && o.expiration !== '0' ? Number(o.expiration) : Number.POSITIVE_INFINITY),
      cell: (c) => {
        const o = c.row.original;
        return <span data-testid="open-order-expiry">{o.expiration && o.expiration !== '0' ? timeOf(Number(o.expiration) - 60) : '—'}</span>;
      },
    },
    { id: 'status', header: 'Status', accessorKey: 'status' },
    idColumn<OrderRecord>((o) => o.id),
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      meta: { className: 'actions' },
      cell: (c) => (
        <button className="ghost small danger" data-testid="cancel-order" disabled={cancel.isPending} onClick={() => cancel.mutate(c.row.original.id)}>
          Cancel
        </button>
      ),
    },
  ];

  if (!session.trader?.hasCredentials) return <Empty>Open orders appear here once the wallet has an API key.</Empty>;
  if (orders.error && isMissingRoute(orders.error)) return <Empty>Open orders are not available on this engine yet.</Empty>;
  const rows = orders.data ?? [];

  return (
    <div className="tab-body" data-testid="open-orders">
      <div className="tab-tools">
        <span className="dim">{rows.length} open</span>
        <button className="ghost small danger" data-testid="cancel-all" disabled={rows.length === 0 || cancelAll.isPending} onClick={() => cancelAll.mutate()}>
          Cancel all
        </button>
        <CancelSummary result={cancelAll.data ?? cancel.data} />
      </div>
      <ErrorLine error={orders.error ?? cancel.error ?? cancelAll.error} />
      {rows.length === 0 && orders.isSuccess ? <Empty testId="open-orders-empty">No open orders.</Empty> : null}
      {rows.length > 0 ? (
        <DataTable
          data={rows}
          columns={columns}
          compact={false}
          testId="open-orders-table"
          empty="No open orders."
          getRowId={(o) => o.id}
          rowProps={(o) => ({ 'data-testid': 'open-order-row', 'data-order-id': o.id, 'data-price': o.price, 'data-side': o.side })}
        />
      ) : null}
    </div>
  );
}

function CancelSummary({ result }: { result: CancelResult | undefined }) {
  if (!result) return null;
  const failed = Object.entries(result.not_canceled ?? {});
  return (
    <span className="dim" data-testid="cancel-result">
      cancelled {result.canceled.length}
      {failed.length ? ` · not cancelled: ${failed.map(([id, why]) => `${shortRecordId(id)} (${why})`).join(', ')}` : ''}
    </span>
  );
}

function QueueCell({ entry }: { entry: QueueEntry | undefined }) {
  return (
    <span data-testid="open-order-queue" data-ahead={entry?.ahead ?? ''} data-level={entry?.level_size ?? ''}>
      {entry ? `ahead ${fixedDecimals(entry.ahead, 2)} of ${fixedDecimals(entry.level_size, 2)}` : '—'}
    </span>
  );
}
