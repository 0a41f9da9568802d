/**
 * Total orders for paged lists (decisions §5): a sort key with a direction, then a fixed tie-break, so
 * the same query always lists rows in the same order and limit/offset pages never overlap or leave gaps.
 */
import type { SortDirection } from '../../protocol/schemas/data.js';

export type SortValue = bigint | number | string;
export type SortKey<T> = (row: T) => SortValue;

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' || typeof b === 'string') {
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts a copy by `key` in `direction`; equal keys fall back to `tie` (which ignores the direction). */
export function sortRows<T>(rows: readonly T[], key: SortKey<T>, direction: SortDirection, tie: (a: T, b: T) => number): T[] {
  const sign = direction === 'ASC' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, k: key(row) }));
  keyed.sort((a, b) => sign * compareValues(a.k, b.k) || tie(a.row, b.row));
  return keyed.map((x) => x.row);
}

/** Numeric order of decimal token-id strings (no leading zeros), without parsing 78-digit numbers. */
export function compareTokenIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
