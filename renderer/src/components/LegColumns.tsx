import { fixedDecimals, shortRecordId, timeOf, tickDecimals } from '../format.js';

/** The leading columns every table of the trader's orders and fills shares. */
export function LegColumns() {
  return (
    <>
      <th>Time</th>
      <th>Market</th>
      <th>Outcome</th>
      <th>Side</th>
      <th className="num">Price</th>
      <th className="num">Size</th>
    </>
  );
}

/** The cells under LegColumns: one order or fill leg. */
/** `tick` formats the price to the market's tick (0.5 → 0.50 on a 0.01 tick). */
export function LegCells(leg: { time: string; market: string; outcome: string; side: string; price: string; size: string; tick?: string }) {
  return (
    <>
      <td className="dim">{timeOf(leg.time)}</td>
      <td className="ellipsis">{leg.market}</td>
      <td>{leg.outcome}</td>
      <td className={leg.side === 'BUY' ? 'up' : 'down'}>{leg.side}</td>
      <td className="num">{leg.tick ? fixedDecimals(leg.price, tickDecimals(leg.tick)) : leg.price}</td>
      <td className="num">{fixedDecimals(leg.size, 2)}</td>
    </>
  );
}

/** A record id, shortened, with the full id on hover. */
export function IdCell({ id }: { id: string }) {
  return (
    <td className="mono dim" title={id}>
      {shortRecordId(id)}
    </td>
  );
}
