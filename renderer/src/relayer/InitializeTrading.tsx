import { useState } from 'react';
import { Dialog } from 'radix-ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { publicApi } from '../api/clientAdapter.js';
import { traderKey, useExchangeConfig, useSession } from '../api/hooks.js';
import { describeError } from '../api/describeError.js';
import { wizardSteps, type WizardStep } from './wizardSteps.js';
import './initializeTrading.css';

const short = (state: string) => state.replace('STATE_', '');

/**
 * "Initialize trading": deploy the wallet's Safe, then approve the exchanges from it, each step with the
 * timeline of its relayer transaction (polled until the streams land).
 */
export function InitializeTrading() {
  const session = useSession();
  const { data: config } = useExchangeConfig();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const address = session.address;
  const chainless = !config || config.rpcUrl === null;

  const deployed = useQuery({ queryKey: ['relayer-deployed', address?.toLowerCase()], queryFn: () => publicApi.safeDeployed(address!), enabled: open && !!address && !chainless, refetchInterval: 1500, retry: false });
  const txs = useQuery({ queryKey: traderKey(session.trader, 'relayer-transactions'), queryFn: () => session.trader!.relayerTransactions(), enabled: open && !!session.trader?.hasCredentials && !chainless, refetchInterval: 1000, retry: false });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['relayer-deployed'] });
    void qc.invalidateQueries({ queryKey: ['trader'] });
  };
  const deploy = useMutation({ mutationFn: () => session.trader!.deploySafe(), onSettled: refresh });
  const approve = useMutation({ mutationFn: () => session.trader!.approveTrading(), onSettled: refresh });

  const steps = wizardSteps(deployed.data?.deployed, txs.data ?? []);
  const allDone = steps.every((s) => s.status === 'done');
  const actions: Record<WizardStep['id'], { run(): void; pending: boolean; error: unknown }> = {
    deploy: { run: () => deploy.mutate(), pending: deploy.isPending, error: deploy.error },
    approve: { run: () => approve.mutate(), pending: approve.isPending, error: approve.error },
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button className="init-trading-open" data-testid="init-trading-open" disabled={!session.trader?.hasCredentials || chainless} title={chainless ? 'This engine runs without a chain: nothing to initialize' : 'Deploy your Safe and approve the exchanges'}>
          Initialize trading
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="init-overlay" />
        <Dialog.Content className="init-dialog" data-testid="init-trading" data-done={String(allDone)}>
          <Dialog.Title>Initialize trading</Dialog.Title>
          <Dialog.Description>
            Your Safe {deployed.data?.address ? <code>{deployed.data.address}</code> : null} holds funds for trading through the relayer. Two gasless steps, signed by your wallet.
          </Dialog.Description>
          <ol className="init-steps">
            {steps.map((s, i) => {
              const a = actions[s.id];
              return (
                <li key={s.id} className={`init-step ${s.status}`} data-testid={`init-step-${s.id}`} data-status={s.status}>
                  <div className="init-step-head">
                    <b>
                      {i + 1}. {s.title}
                    </b>
                    {s.status === 'ready' || s.status === 'failed' ? (
                      <button data-testid={`init-run-${s.id}`} disabled={a.pending} onClick={a.run}>
                        {a.pending ? 'Signing…' : s.status === 'failed' ? 'Retry' : 'Start'}
                      </button>
                    ) : (
                      <span className="badge">{s.status === 'done' ? 'DONE' : s.status === 'running' ? 'IN PROGRESS' : 'WAITING'}</span>
                    )}
                  </div>
                  <ol className="init-timeline" aria-label={`${s.title}: transaction states`}>
                    {s.timeline.map((e) => (
                      <li key={e.state} className={`${e.reached ? 'reached' : ''} ${e.current ? 'current' : ''}`} data-testid="init-timeline-state" data-state={e.state} data-reached={String(e.reached)}>
                        {short(e.state)}
                      </li>
                    ))}
                  </ol>
                  {s.transactionID ? <div className="dim mono">tx {s.transactionID}</div> : null}
                  {a.error ? <div className="down">{describeError(a.error).message}</div> : null}
                </li>
              );
            })}
          </ol>
          {allDone ? <p data-testid="init-trading-done">Trading is initialized: your Safe is deployed and approved.</p> : null}
          <div className="init-buttons">
            <Dialog.Close asChild>
              <button>Close</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
