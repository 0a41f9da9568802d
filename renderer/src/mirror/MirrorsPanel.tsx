import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import type { MirrorClient, MirrorRow, TapeRow } from '../../../engine/client/index.js';
import { DataTable } from '../components/DataTable.js';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useUi } from '../state/uiStore.js';
import { notify } from '../notify/notify.js';
import { shortId } from '../format.js';
import { PublicSearch } from './PublicSearch.js';
import { ageText, bytesText, mirrorBadge } from './mirrorBadge.js';
import { useMirrorClient, useOpenNewMarket } from './useMirrorClient.js';
import { useNow } from './useNow.js';

const POLL_MS = 2000;

/**
 * Mirrors tab: search the public markets and mirror one, the markets mirrored here with their upstream
 * state, the recording switch and the recorded tapes with "Replay" (decisions §10; all operator routes).
 */
export function MirrorsPanel() {
  const client = useMirrorClient();
  const setTab = useUi((s) => s.setBottomTab);
  if (!client)
    return (
      <div className="tab-body" data-testid="mirrors">
        <Empty testId="mirrors-need-token">
          Mirroring public markets is an operator action: give the operator token in the{' '}
          <button className="link" onClick={() => setTab('admin')}>
            Admin tab
          </button>{' '}
          first.
        </Empty>
      </div>
    );
  return (
    <div className="tab-body mirrors" data-testid="mirrors">
      <PublicSearch client={client} />
      <MirroredList client={client} />
      <Tapes client={client} />
    </div>
  );
}

function MirroredList({ client }: { client: MirrorClient }) {
  const qc = useQueryClient();
  const selectMarket = useUi((s) => s.selectMarket);
  const now = useNow();
  const list = useQuery({ queryKey: ['mirrors'], queryFn: () => client.list(), refetchInterval: POLL_MS });
  const stop = useMutation({
    mutationFn: (id: string) => client.stop(id),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['mirrors'] }), qc.invalidateQueries({ queryKey: ['markets'] })]),
  });
  const since = list.dataUpdatedAt ? now - list.dataUpdatedAt : 0;
  const columns: ColumnDef<MirrorRow, unknown>[] = [
    {
      id: 'market',
      header: 'Market',
      accessorKey: 'question',
      cell: (c) => (
        <button className="link" title={c.row.original.conditionId} onClick={() => selectMarket(c.row.original.conditionId)}>
          {c.row.original.question}
        </button>
      ),
    },
    { id: 'source', header: 'Source', accessorKey: 'source' },
    {
      id: 'state',
      header: 'Upstream',
      accessorKey: 'upstreamState',
      cell: (c) => {
        const b = mirrorBadge(c.row.original, since);
        return (
          <span className={`badge ${b.tone}`} title={b.title} data-testid="mirror-row-state">
            {b.detail}
          </span>
        );
      },
    },
    { id: 'recording', header: 'Recording', accessorFn: (r) => (r.recording ? 1 : 0), cell: (c) => (c.row.original.recording ? <span className="badge bad">REC</span> : <span className="dim">off</span>) },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      meta: { className: 'actions' },
      cell: (c) => (
        <button className="ghost small danger" disabled={stop.isPending} aria-label={`Stop mirroring “${c.row.original.question}”`} onClick={() => stop.mutate(c.row.original.conditionId)}>
          Stop
        </button>
      ),
    },
  ];
  return (
    <section className="mirror-section" aria-labelledby="mirrored-title">
      <h3 id="mirrored-title">Mirrored here</h3>
      <ErrorLine error={list.error ?? stop.error} />
      {list.data ? (
        <DataTable
          data={list.data}
          columns={columns}
          testId="mirror-list"
          empty="No public market is mirrored yet: search one above and press Mirror."
          getRowId={(r) => r.conditionId}
          rowProps={(r) => ({ 'data-testid': 'mirror-row', 'data-condition-id': r.conditionId, 'data-state': r.upstreamState })}
        />
      ) : null}
    </section>
  );
}

function Tapes({ client }: { client: MirrorClient }) {
  const qc = useQueryClient();
  const openNew = useOpenNewMarket();
  const tapes = useQuery({ queryKey: ['tapes'], queryFn: () => client.tapes(), refetchInterval: POLL_MS });
  const record = useMutation({
    mutationFn: (on: boolean) => client.setRecording(on),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['tapes'] }), qc.invalidateQueries({ queryKey: ['mirrors'] })]),
  });
  const replay = useMutation({
    mutationFn: (name: string) => client.replay(name),
    onSuccess: async (r, name) => {
      notify.replaying(name);
      await openNew(r.conditionId);
    },
  });
  const columns: ColumnDef<TapeRow, unknown>[] = [
    { id: 'name', header: 'Tape', accessorKey: 'name', cell: (c) => <span className="mono" title={c.row.original.name}>{shortId(c.row.original.name, 14)}</span> },
    { id: 'market', header: 'Market', accessorKey: 'question', cell: (c) => <span title={c.row.original.conditionId}>{c.row.original.question}</span> },
    { id: 'day', header: 'Day', accessorKey: 'day' },
    { id: 'size', header: 'Size', accessorKey: 'bytes', meta: { num: true }, cell: (c) => bytesText(c.row.original.bytes) },
    { id: 'events', header: 'Events', accessorKey: 'events', meta: { num: true } },
    {
      id: 'span',
      header: 'Started',
      accessorKey: 'startedAt',
      cell: (c) => <span title={new Date(c.row.original.startedAt).toISOString()}>{ageText(Date.now() - c.row.original.startedAt)} ago</span>,
    },
    {
      id: 'actions',
      header: '',
      enableSorting: false,
      meta: { className: 'actions' },
      cell: (c) => (
        <button className="small" data-testid="tape-replay" disabled={replay.isPending} aria-label={`Replay the tape ${c.row.original.name}`} onClick={() => replay.mutate(c.row.original.name)}>
          Replay
        </button>
      ),
    },
  ];
  return (
    <section className="mirror-section" aria-labelledby="tapes-title">
      <h3 id="tapes-title">Tapes</h3>
      <label className="check" title="Write every upstream event of every mirrored market, with its receive time, to a tape per market and day">
        <input type="checkbox" checked={tapes.data?.recording ?? false} disabled={!tapes.data || record.isPending} onChange={(e) => record.mutate(e.target.checked)} data-testid="record-toggle" /> Record
        mirrored markets
      </label>
      <ErrorLine error={tapes.error ?? record.error ?? replay.error} />
      {tapes.data ? (
        <DataTable
          data={tapes.data.tapes}
          columns={columns}
          testId="tape-list"
          empty="No tape yet: switch recording on while a market is mirrored."
          getRowId={(t) => t.name}
          rowProps={(t) => ({ 'data-testid': 'tape-row', 'data-name': t.name, 'data-condition-id': t.conditionId })}
        />
      ) : null}
    </section>
  );
}
