import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { IdCell } from '../components/LegColumns.js';
import { traderKey, useExchangeConfig, useSession } from '../api/hooks.js';
import { publicApi } from '../api/clientAdapter.js';
import { describeError, isMissingRoute } from '../api/describeError.js';
import { shortId, timeOf } from '../format.js';

const FINAL_STATES = new Set(['STATE_MINED', 'STATE_CONFIRMED', 'STATE_FAILED', 'STATE_INVALID']);

export function RelayerPanel() {
  const session = useSession();
  const { data: config } = useExchangeConfig();
  const qc = useQueryClient();
  const address = session.address;

  const deployed = useQuery({
    queryKey: ['relayer-deployed', address?.toLowerCase()],
    queryFn: () => publicApi.safeDeployed(address!),
    enabled: !!address,
    refetchInterval: 3000,
    retry: false,
  });
  const txs = useQuery({
    queryKey: traderKey(session.trader, 'relayer-transactions'),
    queryFn: () => session.trader!.relayerTransactions(),
    enabled: !!session.trader?.hasCredentials,
    refetchInterval: (q) => ((q.state.data ?? []).some((t) => !FINAL_STATES.has(t.state)) ? 1000 : 4000),
    retry: false,
  });
  const deploy = useMutation({
    mutationFn: () => session.trader!.deploySafe(),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['relayer-deployed'] });
      void qc.invalidateQueries({ queryKey: ['trader'] });
    },
  });

  const approve = useMutation({
    mutationFn: () => session.trader!.approveTrading(),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['trader'] }),
  });

  // The approval's state follows the relayer's list (it moves NEW → … → CONFIRMED), not the submit answer.
  const approveState = txs.data?.find((t) => t.transactionID === approve.data?.transactionID)?.state ?? approve.data?.state;
  const approved = (txs.data ?? []).some((t) => /^approve/.test(t.metadata ?? '') && (t.state === 'STATE_MINED' || t.state === 'STATE_CONFIRMED'));
  const approvePending = !!approveState && !FINAL_STATES.has(approveState);

  if (!address) return <Empty>Select a wallet to see its Safe.</Empty>;
  const chainless = config && config.rpcUrl === null;
  const deployedErr = deployed.error ? describeError(deployed.error) : undefined;

  return (
    <div className="tab-body relayer" data-testid="relayer">
      <div className="relayer-head">
        <dl className="kv inline">
          <div>
            <dt>Safe</dt>
            <dd className="mono" data-testid="relayer-safe-address">
              {deployed.data?.address ?? '—'}
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd data-testid="relayer-deployed" data-deployed={deployed.data ? String(deployed.data.deployed) : ''}>
              {deployed.data ? (deployed.data.deployed ? <span className="badge ok">DEPLOYED</span> : <span className="badge dim">NOT DEPLOYED</span>) : '…'}
            </dd>
          </div>
        </dl>
        <button
          data-testid="relayer-deploy"
          disabled={!session.trader?.hasCredentials || deploy.isPending || deployed.data?.deployed === true || !!chainless}
          onClick={() => deploy.mutate()}
          title="Sign CreateProxy and ask the relayer to deploy your Safe"
        >
          {deploy.isPending ? 'Deploying…' : 'Deploy Safe'}
        </button>
        <button
          data-testid="relayer-approve"
          disabled={!session.trader?.hasCredentials || approve.isPending || approvePending || approved || deployed.data?.deployed !== true}
          onClick={() => approve.mutate()}
          title="Submit a SAFE transaction approving collateral and outcome tokens to the exchanges"
        >
          {approve.isPending ? 'Submitting…' : approved ? 'Approved for trading' : 'Approve for trading'}
        </button>
        {!session.trader?.hasCredentials ? <span className="hint">Relayer writes need an API key.</span> : null}
        {chainless ? <span className="hint">This engine runs without a chain (--chain none): wallet routes are disabled.</span> : null}
      </div>
      {deploy.data ? (
        <div className="placement ok" data-testid="relayer-deploy-result">
          <span className="badge ok">SUBMITTED</span>
          <span className="mono">tx {shortId(deploy.data.txHash, 14)}</span>
          <span className="dim">{deploy.data.confirmations} confirmations</span>
        </div>
      ) : null}
      {approve.data ? (
        <div className="placement ok" data-testid="relayer-approve-result">
          <span className="badge ok" data-testid="relayer-approve-state">{(approveState ?? '').replace('STATE_', '')}</span>
          <span className="mono">transaction {shortId(approve.data.transactionID, 14)}</span>
        </div>
      ) : null}
      <ErrorLine error={deploy.error ?? approve.error} testId="relayer-error" />
      {deployedErr && !isMissingRoute(deployed.error) ? <ErrorLine error={deployed.error} /> : null}
      {txs.error && !isMissingRoute(txs.error) ? <ErrorLine error={txs.error} /> : null}
      {txs.data && txs.data.length === 0 ? <Empty>No relayer transactions yet.</Empty> : null}
      {txs.data && txs.data.length > 0 ? (
        <table className="grid">
          <thead>
            <tr>
              <th>Time</th>
              <th>Id</th>
              <th>Type</th>
              <th>State</th>
              <th>Tx hash</th>
              <th>Label / error</th>
            </tr>
          </thead>
          <tbody>
            {txs.data.map((t) => (
              <tr key={t.transactionID} data-testid="relayer-tx-row" data-state={t.state} data-final={String(FINAL_STATES.has(t.state))}>
                <td className="dim">{timeOf(t.createdAt)}</td>
                <IdCell id={t.transactionID} />
                <td>{t.type ?? '—'}</td>
                <td>
                  <span className={`badge ${t.state === 'STATE_FAILED' || t.state === 'STATE_INVALID' ? 'bad' : FINAL_STATES.has(t.state) ? 'ok' : 'warn'}`} data-testid="relayer-tx-state">
                    {t.state.replace('STATE_', '')}
                  </span>
                </td>
                <td className="mono dim" title={t.transactionHash}>
                  {shortId(t.transactionHash, 14)}
                </td>
                <td className={t.errorMsg ? 'down' : 'dim'}>{t.errorMsg ?? t.metadata ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
