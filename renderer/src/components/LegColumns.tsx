import type { ColumnDef } from '@tanstack/react-table';
import { fixedDecimals, shortRecordId, timeOf, tickDecimals } from '../format.js';

/** One order or fill leg as the trader's tables show it. `tick` formats the price (0.5 → 0.50 on a 0.01 tick). */
export interface Leg {
  time: string;
  market: string;
  outcome: string;
  side: string;
  price: string;
  size: string;
  tick?: string;
}

/**
 * The leading columns every table of the trader's orders and fills shares, as TanStack column
 * definitions that sort on the values (time and numbers numerically, not as text).
 */
export function legColumns<T>(leg: (row: T) => Leg): ColumnDef<T, unknown>[] {
  return [
    { id: 'time', header: 'Time', accessorFn: (r) => sortableTime(leg(r).time), cell: (c) => <span className="dim">{timeOf(leg(c.row.original).time)}</span> },
    { id: 'market', header: 'Market', accessorFn: (r) => leg(r).market, meta: { className: 'ellipsis' } },
    { id: 'outcome', header: 'Outcome', accessorFn: (r) => leg(r).outcome },
    { id: 'side', header: 'Side', accessorFn: (r) => leg(r).side, cell: (c) => <span className={c.getValue() === 'BUY' ? 'up' : 'down'}>{c.getValue() as string}</span> },
    {
      id: 'price',
      header: 'Price',
      accessorFn: (r) => Number(leg(r).price),
      meta: { num: true },
      cell: (c) => {
        const l = leg(c.row.original);
        return l.tick ? fixedDecimals(l.price, tickDecimals(l.tick)) : l.price;
      },
    },
    { id: 'size', header: 'Size', accessorFn: (r) => Number(leg(r).size), meta: { num: true }, cell: (c) => fixedDecimals(leg(c.row.original).size, 2) },
  ];
}

/** Epoch digits or an ISO date, as a number that sorts in time order. */
function sortableTime(t: string): number {
  const ms = /^\d+$/.test(t) ? Number(t) : Date.parse(t);
  return Number.isFinite(ms) ? ms : 0;
}

/** A record id column, shortened, with the full id on hover. */
export function idColumn<T>(id: (row: T) => string, header = 'Id'): ColumnDef<T, unknown> {
  // Record ids (ULIDs) sort as text: the default alphanumeric order would compare their digit runs as numbers.
  return { id: 'id', header, accessorFn: id, sortingFn: 'text', meta: { className: 'mono dim' }, cell: (c) => <span title={c.getValue() as string}>{shortRecordId(c.getValue() as string)}</span> };
}

/** A record id cell for hand-built tables, shortened, with the full id on hover. */
export function IdCell({ id }: { id: string }) {
  return (
    <td className="mono dim" title={id}>
      {shortRecordId(id)}
    </td>
  );
}
