import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useSelection, useSession } from '../api/hooks.js';
import { createAdminApi } from '../api/clientAdapter.js';
import { describeError } from '../api/describeError.js';
import { desktopBridge, rememberOperatorToken } from '../desktop.js';
import { useOperatorToken } from '../api/useOperatorToken.js';
import { SimulationPanel } from './SimulationPanel.js';
import { shortAddress, shortId } from '../format.js';

/** Operator tools: only offered when the operator token is known (desktop app, npm start, or pasted). */
export function AdminPanel() {
  const qc = useQueryClient();
  const token = useOperatorToken();
  const [pasted, setPasted] = useState('');
  const { market } = useSelection();
  const session = useSession();
  const [faucetAmount, setFaucetAmount] = useState('1000');
  const [question, setQuestion] = useState('');
  const [tickSize, setTickSize] = useState('0.01');
  const [minSize, setMinSize] = useState('5');
  const [negRisk, setNegRisk] = useState(false);
  const [winner, setWinner] = useState(0);
  const [last, setLast] = useState<string>('');
  const [refused, setRefused] = useState(false);

  const admin = token.data ? createAdminApi(token.data) : undefined;
  const refresh = (what: string) => () => {
    setLast(what);
    void qc.invalidateQueries();
  };
  // A 401 means the token is wrong: forget it so the paste field comes back (defect 8).
  const onError = (e: unknown) => {
    setLast('');
    if (describeError(e).status === 401) {
      rememberOperatorToken(undefined);
      setRefused(true);
      void qc.invalidateQueries({ queryKey: ['operator-token'] });
    }
  };
  const faucet = useMutation({ mutationFn: () => admin!.faucet(session.address!, faucetAmount), onSuccess: refresh(`credited ${faucetAmount} to ${shortAddress(session.address)}`), onError });
  const create = useMutation({
    mutationFn: () => admin!.createMarket({ question, tickSize, minOrderSize: minSize, negRisk }),
    onSuccess: (m) => {
      setQuestion('');
      refresh(`created ${shortId(m.condition_id, 10)}`)();
    },
    onError,
  });
  const pause = useMutation({ mutationFn: (id?: string) => admin!.pause(id), onSuccess: (_d, id) => refresh(id ? 'market paused' : 'exchange paused')(), onError });
  const resume = useMutation({ mutationFn: (id?: string) => admin!.resume(id), onSuccess: (_d, id) => refresh(id ? 'market resumed' : 'exchange resumed')(), onError });
  const resolve = useMutation({ mutationFn: () => admin!.resolve(market!.condition_id, winner), onSuccess: refresh('market resolved'), onError });
  const all = [faucet, create, pause, resume, resolve];
  // Only the latest action's outcome is shown: a later success clears an earlier error (defect 8).
  const latest = all.reduce((a, b) => (b.submittedAt > a.submittedAt ? b : a));
  const error = latest.error;

  if (!token.data) {
    return (
      <div className="tab-body" data-testid="admin">
        <Empty>
          Operator tools need the operator token (the <code>operatorToken</code> of the engine's ready line).
          {desktopBridge() ? null : ' The desktop app provides it; in a browser, paste it here.'}
        </Empty>
        {refused ? (
          <div className="error-line" role="alert" data-testid="admin-token-refused">
            <code className="err-code">operator_unauthorized</code>
            <span className="err-msg">The engine refused that operator token; paste the one from its ready line.</span>
          </div>
        ) : null}
        <div className="import-row">
          <input type="password" placeholder="operator token" aria-label="operator token" data-testid="admin-token" value={pasted} onChange={(e) => setPasted(e.target.value)} />
          <button
            data-testid="admin-token-use"
            onClick={() => {
              setRefused(false);
              rememberOperatorToken(pasted.trim());
              void qc.invalidateQueries({ queryKey: ['operator-token'] });
            }}
          >
            Use token
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="tab-body admin" data-testid="admin">
      <div className="admin-grid">
        <fieldset>
          <legend>Faucet</legend>
          <input value={faucetAmount} onChange={(e) => setFaucetAmount(e.target.value.trim())} data-testid="admin-faucet-amount" />
          <button disabled={!session.address || faucet.isPending} onClick={() => faucet.mutate()} data-testid="admin-faucet">
            Credit selected wallet
          </button>
        </fieldset>
        <fieldset>
          <legend>New market</legend>
          <input placeholder="Question" value={question} onChange={(e) => setQuestion(e.target.value)} data-testid="admin-question" />
          <select value={tickSize} onChange={(e) => setTickSize(e.target.value)}>
            {['0.1', '0.01', '0.001', '0.0001'].map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <input value={minSize} onChange={(e) => setMinSize(e.target.value.trim())} title="minimum order size" style={{ width: 60 }} />
          <label className="check">
            <input type="checkbox" checked={negRisk} onChange={(e) => setNegRisk(e.target.checked)} /> neg risk
          </label>
          <button disabled={!question.trim() || create.isPending} onClick={() => create.mutate()} data-testid="admin-create-market">
            Create
          </button>
        </fieldset>
        <fieldset>
          <legend>Circuit breakers</legend>
          <button onClick={() => pause.mutate(undefined)}>Pause all</button>
          <button onClick={() => resume.mutate(undefined)}>Resume all</button>
          <button disabled={!market} onClick={() => pause.mutate(market?.condition_id)}>
            Pause market
          </button>
          <button disabled={!market} onClick={() => resume.mutate(market?.condition_id)}>
            Resume market
          </button>
        </fieldset>
        <fieldset>
          <legend>Resolve selected market</legend>
          <select value={winner} onChange={(e) => setWinner(Number(e.target.value))}>
            {(market?.tokens ?? []).map((t, i) => (
              <option key={t.token_id} value={i}>
                {t.outcome} wins
              </option>
            ))}
          </select>
          <button
            className="danger"
            disabled={!market || resolve.isPending}
            onClick={() => {
              if (confirm(`Resolve “${market?.question}”: ${market?.tokens[winner]?.outcome} wins? This cannot be undone.`)) resolve.mutate();
            }}
          >
            Resolve
          </button>
        </fieldset>
      </div>
      <SimulationPanel operatorToken={token.data} />
      {last ? <div className="dim" data-testid="admin-last">{last}</div> : null}
      <ErrorLine error={error} />
    </div>
  );
}
