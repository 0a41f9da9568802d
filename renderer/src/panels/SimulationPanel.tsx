import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SimClient, type SimParticipantState } from '../../../engine/client/simClient.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useSelection } from '../api/hooks.js';
import { SERVICES } from '../env.js';

const POLL_MS = 2000;

/** Addresses of the simulated participants (public route), to mark a simulated counterparty. */
export function useSimulatedAddresses(): ReadonlySet<string> {
  const q = useQuery({
    queryKey: ['sim-participants'],
    queryFn: async () => new Set((await new SimClient(SERVICES.trading).participants()).map((p) => p.address.toLowerCase())),
    refetchInterval: 30_000,
    retry: false,
  });
  return q.data ?? EMPTY;
}
const EMPTY: ReadonlySet<string> = new Set();

/** Simulated participants and scenarios (decisions §9), with the operator token the admin panel holds. */
export function SimulationPanel(props: { operatorToken: string }) {
  const qc = useQueryClient();
  const sim = new SimClient(SERVICES.trading, props.operatorToken);
  const { market } = useSelection();
  const [picked, setPicked] = useState('');
  const [fair, setFair] = useState('');
  const state = useQuery({ queryKey: ['sim-state'], queryFn: () => sim.state(), refetchInterval: POLL_MS });
  const scenarios = useQuery({ queryKey: ['sim-scenarios'], queryFn: () => sim.scenarios(), refetchInterval: POLL_MS });
  const done = () => void qc.invalidateQueries({ queryKey: ['sim-state'] }).then(() => qc.invalidateQueries({ queryKey: ['sim-scenarios'] }));
  const start = useMutation({ mutationFn: (name: string) => sim.startScenario({ name }), onSuccess: done });
  const stop = useMutation({ mutationFn: () => sim.stopScenario(), onSuccess: done });
  const change = useMutation({ mutationFn: (c: Parameters<SimClient['changeMarket']>[1]) => sim.changeMarket(market!.condition_id, c), onSuccess: done });

  const library = scenarios.data?.library ?? [];
  const current = scenarios.data?.current ?? null;
  const chosen = picked || library[0]?.name || '';
  const here = state.data?.markets.find((m) => m.conditionId === market?.condition_id);
  const pct = current ? Math.round((100 * current.elapsedSeconds) / current.durationSeconds) : 0;

  return (
    <div className="admin-grid" data-testid="simulation">
      <fieldset>
        <legend>Scenario</legend>
        <select value={chosen} onChange={(e) => setPicked(e.target.value)} data-testid="sim-scenario-pick" title={library.find((s) => s.name === chosen)?.description}>
          {library.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name} ({Math.round(s.durationSeconds / 60)} min)
            </option>
          ))}
        </select>
        <button disabled={!chosen || start.isPending} onClick={() => start.mutate(chosen)} data-testid="sim-scenario-start">
          Start
        </button>
        <button disabled={current?.state !== 'running'} onClick={() => stop.mutate()} data-testid="sim-scenario-stop">
          Stop
        </button>
        {current ? (
          <div className="dim" data-testid="sim-scenario-progress">
            <progress max={100} value={pct} /> {current.name}: {current.state}, {Math.floor(current.elapsedSeconds)} / {current.durationSeconds} s, events {current.eventsDone}/{current.eventsTotal}
            {current.steps.some((s) => !s.ok) ? ` (${current.steps.filter((s) => !s.ok).length} failed)` : ''}
          </div>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Participants of the selected market</legend>
        <label className="check">
          <input type="checkbox" checked={here?.enabled ?? false} disabled={!market || change.isPending} onChange={(e) => change.mutate({ enabled: e.target.checked })} data-testid="sim-market-toggle" /> simulated
          {here ? ` · fair ${here.fair}` : ''}
        </label>
        <input placeholder="fair e.g. 0.55" value={fair} onChange={(e) => setFair(e.target.value.trim())} style={{ width: 90 }} />
        <button disabled={!here || !fair} onClick={() => change.mutate({ fair })} data-testid="sim-shock">
          Shock
        </button>
        {here ? (
          <table className="grid">
            <thead>
              <tr>
                <th>Participant</th>
                <th>On</th>
                <th>Per min</th>
                <th>Orders</th>
                <th>Knobs</th>
              </tr>
            </thead>
            <tbody>
              {here.participants.map((p) => (
                <ParticipantRow key={p.name} p={p} onChange={(c) => change.mutate({ participant: p.name, ...c })} />
              ))}
            </tbody>
          </table>
        ) : null}
      </fieldset>
      <ErrorLine error={state.error ?? scenarios.error ?? start.error ?? stop.error ?? change.error} />
    </div>
  );
}

function ParticipantRow(props: { p: SimParticipantState; onChange: (c: { participantEnabled?: boolean; intensity?: number; knobs?: Record<string, number> }) => void }) {
  const { p } = props;
  const spread = typeof p.knobs.halfSpreadTicks === 'number' ? p.knobs.halfSpreadTicks : undefined;
  return (
    <tr data-testid="sim-participant">
      <td title={p.address}>
        {p.name} <span className="dim">{p.role === 'informed' ? 'informed (knows the hidden truth)' : p.role}</span>
      </td>
      <td>
        <input type="checkbox" checked={p.enabled} onChange={(e) => props.onChange({ participantEnabled: e.target.checked })} />
      </td>
      <td>
        <input type="number" min={0.1} step={1} defaultValue={p.intensity} style={{ width: 60 }} onBlur={(e) => Number(e.target.value) > 0 && props.onChange({ intensity: Number(e.target.value) })} />
      </td>
      <td>{p.orders}</td>
      <td>
        {spread !== undefined ? (
          <label>
            half-spread{' '}
            <input type="number" min={0.5} max={100} step={0.5} defaultValue={spread} style={{ width: 50 }} onBlur={(e) => Number(e.target.value) >= 0.5 && Number(e.target.value) <= 100 && props.onChange({ knobs: { halfSpreadTicks: Number(e.target.value) } })} /> ticks
          </label>
        ) : (
          <span className="dim">{Object.entries(p.knobs).map(([k, v]) => `${k} ${v}`).join(' · ')}</span>
        )}
      </td>
    </tr>
  );
}
