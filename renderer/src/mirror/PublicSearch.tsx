import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import type { MirrorClient, PublicCatalogueEntry } from '../../../engine/client/index.js';
import { DataTable } from '../components/DataTable.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useMarkets } from '../api/hooks.js';
import { useUi } from '../state/uiStore.js';
import { notify } from '../notify/notify.js';
import { publicResultView } from './mirrorBadge.js';
import { useOpenNewMarket } from './useMirrorClient.js';

const RESULTS = 20;

/**
 * Words → the public catalogue (Gamma's search through the engine): each result with its first
 * outcome's price, volume and whether it closed, and "Mirror" to follow it here (or "Open" when it
 * already is). The search runs on Enter, not per keystroke: the public search has a request budget.
 */
export function PublicSearch(props: { client: MirrorClient }) {
  const [words, setWords] = useState('');
  const [asked, setAsked] = useState('');
  const { data: markets } = useMarkets();
  const selectMarket = useUi((s) => s.selectMarket);
  const openNew = useOpenNewMarket();
  const here = new Set((markets ?? []).map((m) => m.condition_id.toLowerCase()));
  const view = (e: PublicCatalogueEntry) => publicResultView(e, here);
  const results = useQuery({ queryKey: ['public-search', asked], queryFn: () => props.client.search(asked, RESULTS), enabled: asked !== '', staleTime: 60_000, retry: false });
  const mirror = useMutation({
    mutationFn: (e: PublicCatalogueEntry) => props.client.start(e.slug || e.conditionId),
    onSuccess: async (m) => {
      notify.mirrored(m.question);
      await openNew(m.condition_id);
    },
  });

  const columns: ColumnDef<PublicCatalogueEntry, unknown>[] = [
    {
      id: 'market',
      header: 'Public market',
      accessorKey: 'question',
      cell: (c) => (
        <span title={c.row.original.slug}>
          {c.row.original.question}
          {c.row.original.eventTitle && c.row.original.eventTitle !== c.row.original.question ? <span className="dim"> · {c.row.original.eventTitle}</span> : null}
        </span>
      ),
    },
    {
      id: 'price',
      header: 'Price',
      accessorFn: (e) => Number(e.outcomePrices?.[0] ?? Number.NaN),
      meta: { num: true },
      cell: (c) => <span data-testid="public-price">{view(c.row.original).price}</span>,
    },
    { id: 'volume', header: 'Volume', accessorFn: (e) => Number(e.volume) || 0, meta: { num: true }, cell: (c) => <span data-testid="public-volume">{view(c.row.original).volume}</span> },
    {
      id: 'state',
      header: 'State',
      accessorFn: (e) => (e.closed ? 1 : 0),
      cell: (c) =>
        view(c.row.original).closed ? (
          <span className="badge dim" data-testid="public-closed" title="Closed upstream: a mirror of it takes no orders">
            CLOSED
          </span>
        ) : (
          <span className="dim">open</span>
        ),
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      meta: { className: 'actions' },
      cell: (c) => {
        const e = c.row.original;
        if (view(e).here)
          return (
            <button className="ghost small" data-testid="public-open" onClick={() => selectMarket(e.conditionId)}>
              Open
            </button>
          );
        return (
          <button className="small" data-testid="public-mirror" disabled={mirror.isPending} aria-label={`Mirror “${e.question}”`} onClick={() => mirror.mutate(e)}>
            {mirror.isPending && mirror.variables === e ? 'Mirroring…' : 'Mirror'}
          </button>
        );
      },
    },
  ];

  return (
    <section className="mirror-section" aria-labelledby="public-search-title">
      <h3 id="public-search-title">Public markets</h3>
      <form
        role="search"
        className="import-row"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(words.trim());
        }}
      >
        <input id="public-search" type="search" placeholder="Words, e.g. election" aria-label="Search the public markets" data-testid="public-search" value={words} onChange={(e) => setWords(e.target.value)} />
        <button type="submit" disabled={!words.trim() || results.isFetching} data-testid="public-search-go">
          {results.isFetching ? 'Searching…' : 'Search'}
        </button>
      </form>
      <ErrorLine error={results.error ?? mirror.error} />
      {results.data ? (
        <DataTable
          data={results.data}
          columns={columns}
          testId="public-results"
          empty={`No public market matches “${asked}”.`}
          getRowId={(e) => e.conditionId}
          rowProps={(e) => ({ 'data-testid': 'public-result', 'data-condition-id': e.conditionId, 'data-closed': String(e.closed) })}
        />
      ) : null}
    </section>
  );
}
