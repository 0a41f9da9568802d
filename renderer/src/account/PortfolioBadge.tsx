import { fixedDecimals } from '../format.js';
import { pnlClass, signedUsd, usePortfolio } from './usePortfolio.js';

/** The top bar's account picture: portfolio value, total PnL and day PnL (issue 23, item 10). */
export function PortfolioBadge() {
  const p = usePortfolio();
  if (!p) return null;
  const since = new Date(p.daySince);
  const midnight = since.getUTCHours() === 0 && since.getUTCMinutes() === 0;
  return (
    <span className="portfolio-badge" data-testid="topbar-portfolio">
      <span title={`Portfolio value: cash ${fixedDecimals(p.cash, 2)} USDC + positions at mark ${fixedDecimals(p.positionsValue, 2)}`}>
        <span className="dim">Value </span>
        <b data-testid="topbar-portfolio-value">{fixedDecimals(p.value, 2)}</b>
      </span>
      <span title={`Unrealised ${signedUsd(p.unrealised)} + realised ${signedUsd(p.realised)}`}>
        <span className="dim">PnL </span>
        <b className={pnlClass(p.totalPnl)} data-testid="topbar-total-pnl">{signedUsd(p.totalPnl)}</b>
      </span>
      <span className="day" title={midnight ? 'Since 00:00 UTC' : `Since this terminal first saw the account today (${since.toLocaleTimeString()})`}>
        <span className="dim">Day </span>
        <b className={pnlClass(p.dayPnl)} data-testid="topbar-day-pnl">{signedUsd(p.dayPnl)}</b>
      </span>
    </span>
  );
}
