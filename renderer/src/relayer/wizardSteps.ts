/**
 * The "Initialize trading" wizard as data: its two steps (deploy the Safe, approve the exchanges from it),
 * each tied to its newest relayer transaction, and that transaction's timeline through the relayer's
 * states (STATE_NEW → STATE_EXECUTED → STATE_MINED → STATE_CONFIRMED, or STATE_FAILED / STATE_INVALID).
 */
export const HAPPY_PATH = ['STATE_NEW', 'STATE_EXECUTED', 'STATE_MINED', 'STATE_CONFIRMED'] as const;
const FAILED = new Set(['STATE_FAILED', 'STATE_INVALID']);

export interface TimelineEntry {
  state: string;
  reached: boolean;
  current: boolean;
}

/** The happy path with every state up to `state` reached; a failure replaces the rest of the path. */
export function timelineOf(state: string | undefined): TimelineEntry[] {
  if (state === undefined) return HAPPY_PATH.map((s) => ({ state: s, reached: false, current: false }));
  if (FAILED.has(state)) return [{ state: 'STATE_NEW', reached: true, current: false }, { state, reached: true, current: true }];
  const at = HAPPY_PATH.indexOf(state as (typeof HAPPY_PATH)[number]);
  return HAPPY_PATH.map((s, i) => ({ state: s, reached: i <= at, current: i === at }));
}

export type StepStatus = 'waiting' | 'ready' | 'running' | 'done' | 'failed';

export interface WizardStep {
  id: 'deploy' | 'approve';
  title: string;
  status: StepStatus;
  transactionID?: string;
  timeline: TimelineEntry[];
}

interface Tx {
  transactionID: string;
  type: string;
  state: string;
  createdAt: string;
}

function newest(txs: readonly Tx[], type: string): Tx | undefined {
  return txs.filter((t) => t.type === type).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.transactionID.localeCompare(a.transactionID))[0];
}

function statusOf(tx: Tx | undefined, ready: boolean, doneAnyway = false): StepStatus {
  if (doneAnyway || tx?.state === 'STATE_CONFIRMED' || tx?.state === 'STATE_MINED') return 'done';
  if (tx && FAILED.has(tx.state)) return 'failed';
  if (tx) return 'running';
  return ready ? 'ready' : 'waiting';
}

/** Steps from the Safe's deployed flag and the wallet's relayer transactions. */
export function wizardSteps(deployed: boolean | undefined, txs: readonly Tx[]): WizardStep[] {
  const d = newest(txs, 'SAFE-CREATE');
  const a = newest(txs, 'SAFE');
  const deploy = statusOf(d, deployed === false, deployed === true);
  const approve = statusOf(a, deploy === 'done');
  return [
    { id: 'deploy', title: 'Deploy your Safe', status: deploy, transactionID: d?.transactionID, timeline: timelineOf(deployed === true && !d ? 'STATE_CONFIRMED' : d?.state) },
    { id: 'approve', title: 'Approve the exchanges to trade from it', status: approve, transactionID: a?.transactionID, timeline: timelineOf(a?.state) },
  ];
}
