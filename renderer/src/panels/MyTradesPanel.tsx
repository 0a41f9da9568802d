import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useMarkets, useMyTrades, useSession } from '../api/hooks.js';
import { isMissingRoute } from '../api/describeError.js';
import { fixedDecimals, shortId, timeOf } from '../format.js';
import type { TradeRecord } from '../api/types.js';

/** The reader's own view of a trade: as taker the taker fields; as maker, the maker leg. */
function myLeg(t: TradeRecord) {
  const maker = t.trader_side === 'MAKER' ? t.maker_orders?.[0] : undefined;
  return maker
    ? { side: maker.side, price: maker.price, size: maker.matched_amount, outcome: maker.outcome, role: 'MAKER' }
    : { side: t.side, price: t.price, size: t.size, outcome: t.outcome, role: 'TAKER' };
}

export function MyTradesPanel() {
  const session = useSession();
  const { data: markets } = useMarkets();
  const trades = useMyTrades(session.trader);
  if (!session.trader?.hasCredentials) return <Empty>Your fills appear here once the wallet has an API key.</Empty>;
  if (trades.error && isMissingRoute(trades.error)) return <Empty>Trade history is not available on this engine yet.</Empty>;
  const rows = trades.data ?? [];
  const question = (conditionId: string) => markets?.find((m) => m.condition_id === conditionId)?.question ?? conditionId.slice(0, 10);
  return (
    <div className="tab-body" data-testid="my-trades">
      <ErrorLine error={trades.error} />
      {rows.length === 0 && trades.isSuccess ? <Empty testId="my-trades-empty">No trades yet.</Empty> : null}
      {rows.length > 0 ? (
        <table className="grid">
          <thead>
            <tr>
              <th>Time</th>
              <th>Market</th>
              <th>Outcome</th>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Size</th>
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
                  <td className="dim">{timeOf(t.match_time)}</td>
                  <td className="ellipsis">{question(t.market)}</td>
                  <td>{leg.outcome}</td>
                  <td className={leg.side === 'BUY' ? 'up' : 'down'}>{leg.side}</td>
                  <td className="num">{leg.price}</td>
                  <td className="num">{fixedDecimals(leg.size, 2)}</td>
                  <td>{leg.role}</td>
                  <td>{t.status}</td>
                  <td className="mono dim" title={t.id}>
                    {shortId(t.id, 10)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
