import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type Row, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Column extras: `num` right-aligns, `className` goes on the header and every cell (e.g. the sticky `actions`). */
export interface ColumnMeta {
  num?: boolean;
  className?: string;
}

/** From this many rows on, only the rows in view (plus an overscan) are in the DOM. */
export const VIRTUAL_FROM = 100;

const cellClass = (meta: unknown): string => {
  const m = meta as ColumnMeta | undefined;
  return [m?.num ? 'num' : '', m?.className ?? ''].filter(Boolean).join(' ');
};

/** The nearest ancestor that scrolls vertically: the pane or dialog the table lives in. */
function scrollParent(el: HTMLElement): HTMLElement {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return document.documentElement;
}

/**
 * A sortable TanStack table in the terminal's grid style, virtualised with TanStack Virtual once it is
 * long (a trader with thousands of fills must not put thousands of rows in the DOM). The table keeps its
 * native layout: the rows out of view are replaced by two spacer rows, so sticky headers and the
 * sticky actions column work as before. `rowProps` adds test ids and data attributes.
 */
export function DataTable<T>(props: {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  rowProps?: (row: T) => Record<string, string>;
  getRowId?: (row: T, index: number) => string;
  empty: string;
  testId: string;
  compact?: boolean;
  virtualFrom?: number;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data: props.data,
    columns: props.columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    ...(props.getRowId ? { getRowId: props.getRowId } : {}),
  });
  const rows = table.getRowModel().rows;
  const virtual = rows.length >= (props.virtualFrom ?? VIRTUAL_FROM);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scroller, setScroller] = useState<{ el: HTMLElement; margin: number } | null>(null);
  useLayoutEffect(() => {
    if (!virtual || !bodyRef.current) return;
    const el = scrollParent(bodyRef.current);
    // Where the first row starts inside the scrolling element (toolbars and the header sit above it).
    const margin = bodyRef.current.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    setScroller((s) => (s && s.el === el && Math.abs(s.margin - margin) < 1 ? s : { el, margin }));
  }, [virtual, rows.length]);
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller?.el ?? null,
    estimateSize: () => (props.compact ? 22 : 25),
    overscan: 10,
    scrollMargin: scroller?.margin ?? 0,
    getItemKey: (i) => rows[i]?.id ?? i,
    // Let React batch scroll updates instead of rendering synchronously inside every scroll event.
    useFlushSync: false,
  });

  if (props.data.length === 0) return <div className="empty" data-testid={`${props.testId}-empty`}>{props.empty}</div>;

  const renderRow = (r: Row<T>, index?: number) => (
    <tr key={r.id} {...(props.rowProps?.(r.original) ?? {})} {...(index === undefined ? {} : { 'data-index': index, ref: virtualizer.measureElement })}>
      {r.getVisibleCells().map((c) => (
        <td key={c.id} className={cellClass(c.column.columnDef.meta)}>
          {flexRender(c.column.columnDef.cell, c.getContext())}
        </td>
      ))}
    </tr>
  );

  let body: ReactNode;
  if (virtual) {
    const items = virtualizer.getVirtualItems();
    const margin = scroller?.margin ?? 0;
    const top = items.length ? items[0]!.start - margin : 0;
    const bottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - margin) : 0;
    const span = table.getVisibleLeafColumns().length;
    body = (
      <>
        {top > 0 ? <tr aria-hidden="true" className="virtual-pad" style={{ height: top }}><td colSpan={span} /></tr> : null}
        {items.map((it) => renderRow(rows[it.index]!, it.index))}
        {bottom > 0 ? <tr aria-hidden="true" className="virtual-pad" style={{ height: bottom }}><td colSpan={span} /></tr> : null}
      </>
    );
  } else body = rows.map((r) => renderRow(r));

  return (
    <table className={`grid${props.compact === false ? '' : ' compact'}`} data-testid={props.testId} data-rows={rows.length} data-virtual={virtual ? 'true' : 'false'}>
      <thead>
        {table.getHeaderGroups().map((g) => (
          <tr key={g.id}>
            {g.headers.map((h) => (
              <th
                key={h.id}
                className={cellClass(h.column.columnDef.meta)}
                aria-sort={h.column.getIsSorted() === 'asc' ? 'ascending' : h.column.getIsSorted() === 'desc' ? 'descending' : 'none'}
              >
                {h.column.getCanSort() ? (
                  <button className="link sort" data-testid={`${props.testId}-sort-${h.column.id}`} onClick={h.column.getToggleSortingHandler()}>
                    {flexRender(h.column.columnDef.header, h.getContext())}
                    {h.column.getIsSorted() === 'asc' ? ' ▲' : h.column.getIsSorted() === 'desc' ? ' ▼' : ''}
                  </button>
                ) : (
                  flexRender(h.column.columnDef.header, h.getContext())
                )}
              </th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody ref={bodyRef}>{body}</tbody>
    </table>
  );
}
