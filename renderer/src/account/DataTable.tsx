import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { useState } from 'react';

/** A sortable TanStack table in the terminal's grid style; `rowProps` adds test ids and data attributes. */
export function DataTable<T>(props: { data: T[]; columns: ColumnDef<T, unknown>[]; rowProps?: (row: T) => Record<string, string>; empty: string; testId: string }) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({ data: props.data, columns: props.columns, state: { sorting }, onSortingChange: setSorting, getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel() });
  if (props.data.length === 0) return <div className="empty" data-testid={`${props.testId}-empty`}>{props.empty}</div>;
  return (
    <table className="grid compact" data-testid={props.testId}>
      <thead>
        {table.getHeaderGroups().map((g) => (
          <tr key={g.id}>
            {g.headers.map((h) => (
              <th key={h.id} className={(h.column.columnDef.meta as { num?: boolean } | undefined)?.num ? 'num' : ''} aria-sort={h.column.getIsSorted() === 'asc' ? 'ascending' : h.column.getIsSorted() === 'desc' ? 'descending' : 'none'}>
                {h.column.getCanSort() ? (
                  <button className="link" onClick={h.column.getToggleSortingHandler()}>
                    {flexRender(h.column.columnDef.header, h.getContext())}
                  </button>
                ) : (
                  flexRender(h.column.columnDef.header, h.getContext())
                )}
              </th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((r) => (
          <tr key={r.id} {...(props.rowProps?.(r.original) ?? {})}>
            {r.getVisibleCells().map((c) => (
              <td key={c.id} className={(c.column.columnDef.meta as { num?: boolean } | undefined)?.num ? 'num' : ''}>
                {flexRender(c.column.columnDef.cell, c.getContext())}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
