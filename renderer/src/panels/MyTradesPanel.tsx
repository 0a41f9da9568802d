import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { IdCell, LegCells, LegColumns } from '../components/LegColumns.js';
import { useMyTrades, useSession } from '../api/hooks.js';
import { isMissingRoute } from '../api/describeError.js';
import type { TradeRecord } from '../api/types.js';
import { useMarketLabels } from './useMarketLabels.js';
import { useSimulatedAddresses } from './SimulationPanel.js';

/** The reader's own view of a trade: as taker the taker fields; as maker, the maker leg. */
function myLeg(t: TradeRecord) {
  const maker = t.trader_side === 'MAKER' ? t.maker_orders?.[0] : undefined;
  return maker
    ? { side: maker.side, price: maker.price, size: maker.matched_amount, outcome: maker.outcome, role: 'MAKER' }
    : { side: t.side, price: t.price, size: t.size, outcome: t.outcome, role: 'TAKER' };
}

export function MyTradesPanel() {
  const session = useSession();
  const { question, tick } = useMarketLabels();
  const trades = useMyTrades(session.trader);
  const simulated = useSimulatedAddresses();
  if (!session.trader?.hasCredentials) return <Empty>Your fills appear here once the wallet has an API key.</Empty>;
  if (trades.error && isMissingRoute(trades.error)) return <Empty>Trade history is not available on this engine yet.</Empty>;
  const rows = trades.data ?? [];
  return (
    <div className="tab-body" data-testid="my-trades">
      <ErrorLine error={trades.error} />
      {rows.length === 0 && trades.isSuccess ? <Empty testId="my-trades-empty">No trades yet.</Empty> : null}
      {rows.length > 0 ? (
        <table className="grid">
          <thead>
            <tr>
              <LegColumns />
              <th>Role</th>
              <th>Status</th>
              <th>Trade</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => {
              const leg = myLeg(t);
              return (
                <tr key={`${t.id}-${leg.role}`} data-testid="my-trade-row" data-trade-id={t.id}>
                  <LegCells time={t.match_time} market={question(t.market)} outcome={leg.outcome} side={leg.side} price={leg.price} size={leg.size} tick={tick(t.market)} />
                  <td>{leg.role}{simulated.has((leg.role === 'TAKER' ? t.maker_orders?.[0]?.maker_address : t.maker_address)?.toLowerCase() ?? '') ? <span className="dim" title="the counterparty was a simulated participant" data-testid="sim-marker"> · sim</span> : null}</td>
                  <td>{t.status}</td>
                  <IdCell id={t.id} />
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
