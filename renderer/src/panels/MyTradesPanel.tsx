import { useMemo } from 'react';
import { PUBLIC_MARKET_ADDRESS } from '../../../engine/protocol/publicMarketAccount.js';
import type { ColumnDef } from '@tanstack/react-table';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { DataTable } from '../components/DataTable.js';
import { idColumn, legColumns } from '../components/LegColumns.js';
import { useMyTrades, useSession } from '../api/hooks.js';
import { isMissingRoute } from '../api/describeError.js';
import type { TradeRecord } from '../api/types.js';
import { useMarketLabels } from './useMarketLabels.js';
import { myFill } from '../account/myFill.js';
import { useSimulatedAddresses } from './SimulationPanel.js';

export function MyTradesPanel() {
  const session = useSession();
  const { question, tick } = useMarketLabels();
  const trades = useMyTrades(session.trader);
  const simulated = useSimulatedAddresses();
  const columns = useMemo<ColumnDef<TradeRecord, unknown>[]>(
    () => [
      ...legColumns<TradeRecord>((t) => {
        const leg = myFill(t, session.address);
        const tk = tick(t.market);
        return { time: t.match_time, market: question(t.market), outcome: leg.outcome, side: leg.side, price: leg.price, size: leg.size, ...(tk ? { tick: tk } : {}) };
      }),
      {
        id: 'role',
        header: 'Role',
        accessorFn: (t) => myFill(t, session.address).role,
        cell: (c) => {
          const t = c.row.original;
          const role = c.getValue() as string;
          const counterparty = (role === 'TAKER' ? t.maker_orders?.[0]?.maker_address : t.maker_address)?.toLowerCase() ?? '';
          return (
            <>
              {role}
              {simulated.has(counterparty) ? <span className="dim" title="the counterparty was a simulated participant" data-testid="sim-marker"> · sim</span> : null}
              {counterparty === PUBLIC_MARKET_ADDRESS ? (
                <span className="dim" title="the other side was the public market: its depth (your order took it) or a public trade print (it filled your resting order)" data-testid="public-marker">
                  {' '}
                  · public
                </span>
              ) : null}
            </>
          );
        },
      },
      { id: 'status', header: 'Status', accessorKey: 'status' },
      idColumn<TradeRecord>((t) => t.id, 'Trade'),
    ],
    [question, tick, simulated, session.address],
  );
  if (!session.trader?.hasCredentials) return <Empty>Your fills appear here once the wallet has an API key.</Empty>;
  if (trades.error && isMissingRoute(trades.error)) return <Empty>Trade history is not available on this engine yet.</Empty>;
  const rows = trades.data ?? [];
  return (
    <div className="tab-body" data-testid="my-trades">
      <ErrorLine error={trades.error} />
      {rows.length === 0 && trades.isSuccess ? <Empty testId="my-trades-empty">No trades yet.</Empty> : null}
      {rows.length > 0 ? (
        <DataTable
          data={rows}
          columns={columns}
          compact={false}
          testId="my-trades-table"
          empty="No trades yet."
          getRowId={(t) => `${t.id}-${myFill(t, session.address).role}`}
          rowProps={(t) => ({ 'data-testid': 'my-trade-row', 'data-trade-id': t.id })}
        />
      ) : null}
    </div>
  );
}
