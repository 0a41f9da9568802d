import { Empty, Panel } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useSelection, useTape } from '../api/hooks.js';
import { isMissingRoute } from '../api/describeError.js';
import { formatUnits, ONE } from '../../../engine/protocol/amounts.js';
import { fixedDecimals, priceText, tickDecimals, timeOf, toMicros } from '../format.js';
import { useUi } from '../state/uiStore.js';
import type { TradeRecord } from '../api/types.js';

/**
 * A trade as seen from the selected outcome. A binary market has one book, so a fill whose taker
 * traded the other outcome (mint / merge / mirrored) happened here at the complementary price,
 * on the opposite side of the price move.
 */
export function tapeView(t: Pick<TradeRecord, 'asset_id' | 'price' | 'side'>, tokenId: string): { price: string; side: 'BUY' | 'SELL' } {
  if (t.asset_id === tokenId) return { price: t.price, side: t.side };
  const p = toMicros(t.price);
  return { price: p === undefined ? t.price : formatUnits(ONE - p), side: t.side === 'BUY' ? 'SELL' : 'BUY' };
}

export function TapePanel() {
  const { market, tokenId } = useSelection();
  const { data: trades, error } = useTape(tokenId);
  const dp = tickDecimals(market?.minimum_tick_size ?? '0.01');
  const priceStyle = useUi((s) => s.priceStyle);
  return (
    <Panel title="Last trades" className="tape" testId="tape-panel">
      {error && !isMissingRoute(error) ? <ErrorLine error={error} /> : null}
      {trades && trades.length === 0 ? <Empty>No trades yet in this outcome.</Empty> : null}
      {error && isMissingRoute(error) ? <Empty>The trade tape is not available on this engine yet.</Empty> : null}
      <table className="grid compact">
        <thead>
          <tr>
            <th>Time</th>
            <th className="num">Price</th>
            <th className="num">Size</th>
          </tr>
        </thead>
        <tbody>
          {(trades ?? []).slice(0, 60).map((t) => {
            const v = tapeView(t, tokenId ?? '');
            return (
              <tr key={t.id} data-testid="tape-row" data-price={v.price} className={v.side === 'BUY' ? 'up' : 'down'}>
                <td className="dim">{timeOf(t.match_time)}</td>
                <td className="num px">{priceText(v.price, dp, priceStyle)}</td>
                <td className="num">{fixedDecimals(t.size, 2)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}
