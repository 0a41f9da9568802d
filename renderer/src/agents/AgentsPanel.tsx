import { useMemo, useState } from 'react';
import { AlertDialog, Dialog } from 'radix-ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { toast } from 'sonner';
import type { AgentInfo, AuditEntry } from '../../../engine/client/agentsClient.js';
import { DataTable } from '../components/DataTable.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { shortAddress } from '../format.js';
import { useUi } from '../state/uiStore.js';
import { auditSummary, compactJson } from './auditText.js';
import { NeedsOperatorToken, useAgentsClient } from './operatorAccess.js';
import './agents.css';

/** How often the audit log is read again: calls show up about a second after they are answered. */
export const AUDIT_POLL_MS = 1000;
/** Most audit entries the view holds. */
const AUDIT_LIMIT = 500;

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * The Agents view (issue 24): agent tokens (issue with limits, list, revoke) and the audit log of every
 * MCP tool call, newest first, filterable by agent, polled every second, with the token that made it.
 */
export function AgentsPanel() {
  const { client, loading } = useAgentsClient();
  const qc = useQueryClient();
  const [filter, setFilter] = useState('');
  const [issued, setIssued] = useState<(AgentInfo & { token: string }) | undefined>();
  const [revoking, setRevoking] = useState<AgentInfo | undefined>();
  const agents = useQuery({ queryKey: ['agents'], queryFn: () => client!.list(), enabled: !!client, refetchInterval: 5000 });
  const audit = useQuery({ queryKey: ['agents-audit', filter], queryFn: () => client!.audit({ ...(filter ? { agent: filter } : {}), limit: AUDIT_LIMIT }), enabled: !!client, refetchInterval: AUDIT_POLL_MS });
  const create = useMutation({
    mutationFn: (body: Parameters<NonNullable<typeof client>['create']>[0]) => client!.create(body),
    onSuccess: (a) => {
      setIssued(a);
      void qc.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => client!.revoke(id),
    onSuccess: (a) => {
      toast.success('Agent token revoked', { description: `${a.name} (${a.id}) is refused from its next call; its wallet and history stay.` });
      void qc.invalidateQueries({ queryKey: ['agents'] });
    },
    onError: (e) => toast.error('Revoke failed', { description: e instanceof Error ? e.message : String(e) }),
  });

  const byId = useMemo(() => new Map((agents.data ?? []).map((a) => [a.id, a])), [agents.data]);
  const entries = useMemo(() => (audit.data ?? []).slice().reverse(), [audit.data]);

  if (!client) return loading ? null : <NeedsOperatorToken what="The Agents view" testId="agents" />;
  return (
    <div className="tab-body agents" data-testid="agents">
      <div className="agents-top">
        <IssueForm pending={create.isPending} onIssue={(body) => create.mutate(body)} />
        <AgentTable agents={agents.data ?? []} onRevoke={setRevoking} />
      </div>
      <ErrorLine error={agents.error ?? create.error} />
      <div className="agents-audit-head">
        <h3>Audit log</h3>
        <label>
          agent{' '}
          <select value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="audit-filter">
            <option value="">all agents</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </label>
        <span className="dim">
          newest first · {entries.length} call(s) · refreshed every {AUDIT_POLL_MS / 1000} s
        </span>
      </div>
      <AuditTable entries={entries} nameOf={(id) => byId.get(id)?.name ?? id} />
      <ErrorLine error={audit.error} />

      <Dialog.Root open={!!issued} onOpenChange={(o) => (o ? null : setIssued(undefined))}>
        <Dialog.Portal>
          <Dialog.Overlay className="account-overlay" />
          <Dialog.Content className="agents-dialog" data-testid="agent-issued" aria-describedby={undefined}>
            <Dialog.Title>Token for {issued?.name}</Dialog.Title>
            <p>Shown this once: the engine keeps only its hash. Give it to the agent app as <code>Authorization: Bearer …</code> for <code>/mcp</code> (docs/agents.md).</p>
            <code className="agents-token" data-testid="agent-token-value">
              {issued?.token}
            </code>
            <p className="dim">
              Paper wallet {issued?.address} · limits: notional {issued?.limits.maxOrderNotional}, open orders {issued?.limits.maxOpenOrders}, orders/min {issued?.limits.maxOrdersPerMinute}
            </p>
            <div className="agents-dialog-actions">
              <button onClick={() => void navigator.clipboard?.writeText(issued?.token ?? '').then(() => toast.success('Token copied'))}>Copy token</button>
              <Dialog.Close asChild>
                <button data-testid="agent-issued-close">Done</button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>

      <AlertDialog.Root open={!!revoking} onOpenChange={(o) => (o ? null : setRevoking(undefined))}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="account-overlay" />
          <AlertDialog.Content className="agents-dialog" data-testid="agent-revoke-confirm">
            <AlertDialog.Title>Revoke {revoking?.name}?</AlertDialog.Title>
            <AlertDialog.Description>Its token is refused from the next request on. Its paper wallet, orders and history stay.</AlertDialog.Description>
            <div className="agents-dialog-actions">
              <AlertDialog.Cancel asChild>
                <button>Keep</button>
              </AlertDialog.Cancel>
              <AlertDialog.Action asChild>
                <button className="danger" data-testid="agent-revoke-yes" onClick={() => revoking && revoke.mutate(revoking.id)}>
                  Revoke
                </button>
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}

function IssueForm(props: { pending: boolean; onIssue: (body: { name?: string; limits: { maxOrderNotional?: string; maxOpenOrders?: number; maxOrdersPerMinute?: number } }) => void }) {
  const [name, setName] = useState('');
  const [notional, setNotional] = useState('1000');
  const [open, setOpen] = useState('50');
  const [perMinute, setPerMinute] = useState('60');
  return (
    <fieldset className="agents-issue">
      <legend>Issue an agent token</legend>
      <input placeholder="name, e.g. my-bot" value={name} onChange={(e) => setName(e.target.value)} data-testid="agent-name" aria-label="agent name" />
      <label>
        max order notional <input value={notional} onChange={(e) => setNotional(e.target.value.trim())} style={{ width: 70 }} data-testid="agent-limit-notional" />
      </label>
      <label>
        max open orders <input type="number" min={1} value={open} onChange={(e) => setOpen(e.target.value)} style={{ width: 60 }} />
      </label>
      <label>
        orders/min <input type="number" min={1} value={perMinute} onChange={(e) => setPerMinute(e.target.value)} style={{ width: 60 }} />
      </label>
      <button
        disabled={props.pending}
        data-testid="agent-issue"
        onClick={() => props.onIssue({ ...(name.trim() ? { name: name.trim() } : {}), limits: { maxOrderNotional: notional, maxOpenOrders: Number(open), maxOrdersPerMinute: Number(perMinute) } })}
      >
        Issue token
      </button>
    </fieldset>
  );
}

function AgentTable(props: { agents: AgentInfo[]; onRevoke: (a: AgentInfo) => void }) {
  const setTab = useUi((s) => s.setBottomTab);
  const setReportAccount = useUi((s) => s.setReportAccount);
  const columns = useMemo<ColumnDef<AgentInfo, unknown>[]>(
    () => [
      { id: 'name', header: 'Agent', accessorFn: (a) => a.name, cell: (c) => <span title={c.row.original.id}>{c.row.original.name}</span> },
      { id: 'wallet', header: 'Paper wallet', accessorFn: (a) => a.address, cell: (c) => <span className="mono" title={c.row.original.address}>{shortAddress(c.row.original.address)}</span> },
      { id: 'limits', header: 'Limits', enableSorting: false, cell: (c) => <span className="dim">≤ {c.row.original.limits.maxOrderNotional} · {c.row.original.limits.maxOpenOrders} open · {c.row.original.limits.maxOrdersPerMinute}/min</span> },
      { id: 'created', header: 'Issued', accessorFn: (a) => a.createdAt, cell: (c) => time(c.row.original.createdAt) },
      { id: 'state', header: 'State', accessorFn: (a) => a.revokedAt ?? 0, cell: (c) => (c.row.original.revokedAt ? <span className="neg">revoked {time(c.row.original.revokedAt)}</span> : <span className="pos">active</span>) },
      {
        id: 'actions',
        header: '',
        enableSorting: false,
        meta: { className: 'actions' },
        cell: (c) => (
          <>
            <button
              className="link"
              data-testid="agent-report"
              onClick={() => {
                setReportAccount(c.row.original.address);
                setTab('report');
              }}
            >
              Report
            </button>{' '}
            {c.row.original.revokedAt ? null : (
              <button className="link danger" data-testid="agent-revoke" onClick={() => props.onRevoke(c.row.original)}>
                Revoke
              </button>
            )}
          </>
        ),
      },
    ],
    [props, setTab, setReportAccount],
  );
  return <DataTable data={props.agents} columns={columns} testId="agents-table" empty="No agent yet: issue a token to let an agent app trade over MCP." getRowId={(a) => a.id} rowProps={(a) => ({ 'data-agent': a.id, 'data-state': a.revokedAt ? 'revoked' : 'active' })} />;
}

function AuditTable(props: { entries: AuditEntry[]; nameOf: (agentId: string) => string }) {
  const columns = useMemo<ColumnDef<AuditEntry, unknown>[]>(
    () => [
      { id: 'time', header: 'Time (UTC)', accessorFn: (e) => e.t, cell: (c) => <span title={`exchange time ${time(c.row.original.exchangeTime)}`}>{time(c.row.original.t)}</span> },
      { id: 'agent', header: 'Agent', accessorFn: (e) => props.nameOf(e.agentId), cell: (c) => <span title={c.row.original.agentId}>{props.nameOf(c.row.original.agentId)}</span> },
      { id: 'token', header: 'Token', accessorFn: (e) => e.token, cell: (c) => <code data-testid="audit-token">{c.row.original.token}…</code> },
      { id: 'tool', header: 'Tool', accessorFn: (e) => e.tool, cell: (c) => <code data-testid="audit-tool">{c.row.original.tool}</code> },
      { id: 'arguments', header: 'Arguments', enableSorting: false, meta: { className: 'wrap' }, cell: (c) => <span className="mono audit-json" title={JSON.stringify(c.row.original.arguments, null, 2)}>{compactJson(c.row.original.arguments, 80)}</span> },
      { id: 'result', header: 'Result', enableSorting: false, meta: { className: 'wrap' }, cell: (c) => <span className="audit-json" title={JSON.stringify(c.row.original.result, null, 2)}>{auditSummary(c.row.original)}</span> },
      { id: 'ok', header: 'OK', accessorFn: (e) => e.ok, cell: (c) => (c.row.original.ok ? <span className="pos">ok</span> : <span className="neg">error</span>) },
      { id: 'ms', header: 'ms', accessorFn: (e) => e.ms, meta: { num: true } },
    ],
    [props],
  );
  return (
    <DataTable
      data={props.entries}
      columns={columns}
      testId="audit-table"
      empty="No tool call yet: an agent's calls over /mcp (and npm run mcp) show here with the token that made them."
      getRowId={(e, i) => `${e.t}-${e.agentId}-${i}`}
      rowProps={(e) => ({ 'data-tool': e.tool, 'data-ok': String(e.ok), 'data-agent': e.agentId, 'data-token': e.token })}
    />
  );
}
