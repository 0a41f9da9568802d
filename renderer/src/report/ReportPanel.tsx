import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { BaselineSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import type { PerformanceReport } from '../../../engine/client/agentsClient.js';
import type { MarketLine } from '../../../engine/protocol/agentTypes.js';
import { useSession } from '../api/hooks.js';
import { download } from '../account/download.js';
import { DataTable } from '../components/DataTable.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { Empty } from '../components/Panel.js';
import { shortAddress } from '../format.js';
import { NeedsOperatorToken, useAgentsClient } from '../agents/operatorAccess.js';
import { useMarketLabels } from '../panels/useMarketLabels.js';
import { useSimulatedAddresses } from '../panels/SimulationPanel.js';
import { useUi } from '../state/uiStore.js';
import { equityCsv, exportName, marketsCsv, percentOf, ratioPercent, reportJson } from './reportExport.js';
import { createTerminalChart } from '../chart/terminalChart.js';
import '../agents/agents.css';

/** A live report is read again this often (the curve gains a point each exchange minute). */
const LIVE_POLL_MS = 5000;
const LIVE = 'live';

/**
 * The performance report of any account (issue 24): the selected wallet's, an agent's paper wallet, a
 * simulated participant's; live, or of a finished fast or stepped run. The numbers are the engine's
 * (GET /admin/reports/{address}, the MCP report tool's and report.json's maths), shown as sent; the
 * equity curve is net PnL once per exchange minute. Exports: the curve and the per-market lines as
 * CSV, the whole report as JSON.
 */
export function ReportPanel() {
  const { client, loading } = useAgentsClient();
  const session = useSession();
  const picked = useUi((s) => s.reportAccount);
  const setPicked = useUi((s) => s.setReportAccount);
  const [source, setSource] = useState(LIVE);
  const [typed, setTyped] = useState<string | undefined>();
  const account = (picked ?? session.address ?? '').toLowerCase();
  const agents = useQuery({ queryKey: ['agents'], queryFn: () => client!.list(), enabled: !!client });
  const runs = useQuery({ queryKey: ['runs'], queryFn: () => client!.runs(), enabled: !!client, refetchInterval: 15_000 });
  const simulated = useSimulatedAddresses();
  const valid = /^0x[0-9a-f]{40}$/.test(account);
  const report = useQuery({
    queryKey: ['report', source, account],
    queryFn: () => (source === LIVE ? client!.report(account) : client!.runReport(source, account)),
    enabled: !!client && valid,
    refetchInterval: source === LIVE ? LIVE_POLL_MS : false,
    retry: false,
  });
  const labels = useMarketLabels();

  const choices = useMemo(() => {
    const out = new Map<string, string>();
    if (session.address) out.set(session.address.toLowerCase(), `this wallet (${session.label})`);
    for (const a of agents.data ?? []) out.set(a.address, `agent ${a.name}`);
    const run = runs.data?.find((r) => r.runId === source);
    for (const a of run?.accounts ?? []) if (!out.has(a.account)) out.set(a.account, a.simulated ? 'participant' : 'account');
    for (const a of simulated) if (!out.has(a)) out.set(a, 'participant');
    return [...out];
  }, [session.address, session.label, agents.data, runs.data, source, simulated]);

  if (!client) return loading ? null : <NeedsOperatorToken what="The performance report" testId="report" />;
  const r = report.data;
  return (
    <div className="tab-body report" data-testid="report">
      <div className="report-controls">
        <label>
          account{' '}
          <input
            list="report-accounts"
            className="mono"
            size={44}
            value={typed ?? account}
            onChange={(e) => {
              const v = e.target.value.trim();
              setTyped(v);
              if (/^0x[0-9a-fA-F]{40}$/.test(v)) setPicked(v.toLowerCase());
            }}
            onBlur={() => setTyped(undefined)}
            data-testid="report-account"
            aria-label="account address"
          />
          <datalist id="report-accounts">
            {choices.map(([a, label]) => (
              <option key={a} value={a}>
                {label}
              </option>
            ))}
          </datalist>
        </label>
        <label>
          figures{' '}
          <select value={source} onChange={(e) => setSource(e.target.value)} data-testid="report-source">
            <option value={LIVE}>live (now)</option>
            {(runs.data ?? []).map((run) => (
              <option key={run.runId} value={run.runId}>
                {run.current ? 'this run' : 'run'} {run.runId} ({run.trades} trades)
              </option>
            ))}
          </select>
        </label>
        <div className="spacer" />
        <button disabled={!r} onClick={() => r && download(exportName(r, 'equity', 'csv'), equityCsv(r))} data-testid="report-export-csv">
          Equity CSV
        </button>
        <button disabled={!r} onClick={() => r && download(exportName(r, 'markets', 'csv'), marketsCsv(r, labels.question))} data-testid="report-export-markets">
          Markets CSV
        </button>
        <button disabled={!r} onClick={() => r && download(exportName(r, 'report', 'json'), reportJson(r), 'application/json')} data-testid="report-export-json">
          JSON
        </button>
      </div>
      {!valid ? <Empty>Pick an account: the selected wallet, an agent, a participant, or any 0x address.</Empty> : null}
      <ErrorLine error={report.error ?? runs.error} />
      {r ? <ReportBody r={r} question={labels.question} /> : null}
    </div>
  );
}

function ReportBody(props: { r: PerformanceReport; question: (conditionId: string) => string }) {
  const { r } = props;
  const figures: Array<[string, string, string]> = [
    ['pnl', 'PnL (net of fees)', r.pnl],
    ['realisedPnl', 'realised', r.realisedPnl],
    ['unrealisedPnl', 'unrealised', r.unrealisedPnl],
    ['return', `return on ${r.capital}`, `${percentOf(r.return)} %`],
    ['maxDrawdown', 'max drawdown', r.maxDrawdown],
    ['sharpe', 'Sharpe-like (per minute)', r.sharpe === null ? '—' : String(r.sharpe)],
    ['hitRate', `hit rate (${r.winningFills}/${r.closingFills} closing fills)`, `${ratioPercent(r.hitRate)} %`],
    ['fees', 'fees', r.fees],
    ['turnover', 'turnover', r.turnover],
    ['trades', 'fills', String(r.trades)],
  ];
  const columns = useMemo<ColumnDef<MarketLine, unknown>[]>(
    () => [
      { id: 'market', header: 'Market', accessorFn: (m) => props.question(m.market), cell: (c) => <span title={c.row.original.market}>{props.question(c.row.original.market)}</span> },
      { id: 'pnl', header: 'PnL', accessorFn: (m) => Number(m.pnl), cell: (c) => c.row.original.pnl, meta: { num: true } },
      { id: 'realised', header: 'Realised', accessorFn: (m) => Number(m.realisedPnl), cell: (c) => c.row.original.realisedPnl, meta: { num: true } },
      { id: 'unrealised', header: 'Unrealised', accessorFn: (m) => Number(m.unrealisedPnl), cell: (c) => c.row.original.unrealisedPnl, meta: { num: true } },
      { id: 'fees', header: 'Fees', accessorFn: (m) => Number(m.fees), cell: (c) => c.row.original.fees, meta: { num: true } },
      { id: 'trades', header: 'Fills', accessorFn: (m) => m.trades, meta: { num: true } },
      { id: 'turnover', header: 'Turnover', accessorFn: (m) => Number(m.turnover), cell: (c) => c.row.original.turnover, meta: { num: true } },
    ],
    [props],
  );
  return (
    <div className="report-body">
      <div className="report-side">
        <div className="dim" data-testid="report-source-line">
          {shortAddress(r.account)} · {r.source === 'live' ? 'live, since the engine started' : r.source === 'run' ? `this run (${r.runId})` : `finished run ${r.runId}`} · as of {new Date(r.asOf).toISOString().replace('T', ' ').slice(0, 19)} exchange time
        </div>
        <dl className="report-figures">
          {figures.map(([key, label, value]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd className="mono" data-testid={`report-${key}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <DataTable data={r.markets} columns={columns} testId="report-markets" empty="No fill yet." getRowId={(m) => m.market} />
      </div>
      <EquityChart r={r} />
    </div>
  );
}

/** The equity curve (net PnL per exchange minute) over a zero baseline, with lightweight-charts. */
function EquityChart(props: { r: PerformanceReport }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const series = useRef<ISeriesApi<'Baseline'> | undefined>(undefined);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { chart: c, up, down } = createTerminalChart(el);
    series.current = c.addSeries(BaselineSeries, { baseValue: { type: 'price', price: 0 }, topLineColor: up, bottomLineColor: down, topFillColor1: 'rgba(47,208,138,0.25)', topFillColor2: 'rgba(47,208,138,0.02)', bottomFillColor1: 'rgba(255,91,110,0.02)', bottomFillColor2: 'rgba(255,91,110,0.25)', lineWidth: 2 });
    chart.current = c;
    return () => {
      c.remove();
      chart.current = undefined;
      series.current = undefined;
    };
  }, []);
  useEffect(() => {
    series.current?.setData(props.r.curve.map((p) => ({ time: (p.t / 1000) as UTCTimestamp, value: Number(p.equity) })));
    chart.current?.timeScale().fitContent();
  }, [props.r.curve]);
  const last = props.r.curve.at(-1);
  return (
    <div className="report-chart" data-testid="equity-curve" data-points={props.r.curve.length} data-last={last?.equity ?? ''}>
      <div className="dim report-chart-head">Equity (net PnL) once per exchange minute · {props.r.curve.length} point(s)</div>
      <div className="report-chart-plot" ref={box} />
      {props.r.curve.length === 0 ? <div className="report-chart-empty dim">No point yet: the curve gains one each exchange minute after the account's first fill.</div> : null}
    </div>
  );
}
