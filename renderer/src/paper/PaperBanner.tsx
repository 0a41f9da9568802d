import { useState } from 'react';
import { Dialog } from 'radix-ui';
import { usePaperApi, usePaperReset, usePaperSessions } from './usePaper.js';
import type { PaperSession } from './paperApi.js';
import './paper.css';

const when = (ms: number) => new Date(ms).toLocaleString();
const money = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;

/**
 * The persistent "paper money" banner (an accent stripe in its own row of the terminal's grid, under the top bar), the starting
 * balance, a reset of the paper account behind a confirmation, and the archive of previous sessions.
 */
export function PaperBanner() {
  const paper = usePaperApi();
  const sessions = usePaperSessions();
  const reset = usePaperReset();
  const [confirming, setConfirming] = useState(false);
  const [archiveOpen, setArchiveOpen] = useState(false);
  const start = sessions.data?.startingBalance ?? '10000';
  const archived = sessions.data?.sessions ?? [];

  return (
    <div className="paper-banner" role="status" data-testid="paper-banner">
      <span className="paper-badge">PAPER</span>
      <span className="paper-text">Paper trading: play money, no real funds. Starting balance {Number(start).toLocaleString()} USDC.</span>
      {paper ? (
        <span className="paper-actions">
          <Dialog.Root open={archiveOpen} onOpenChange={setArchiveOpen}>
            <Dialog.Trigger asChild>
              <button className="ghost" data-testid="paper-sessions-open">
                Past sessions ({archived.length})
              </button>
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="paper-overlay" />
              <Dialog.Content className="paper-dialog wide" data-testid="paper-sessions">
                <Dialog.Title>Archived paper sessions</Dialog.Title>
                <Dialog.Description>Each reset archives the session it ends: balances, positions, realised PnL and trades.</Dialog.Description>
                {archived.length === 0 ? <p className="dim">No archived sessions yet.</p> : null}
                {archived.map((s) => (
                  <SessionCard key={s.id} s={s} />
                ))}
                <div className="paper-buttons">
                  <Dialog.Close asChild>
                    <button>Close</button>
                  </Dialog.Close>
                </div>
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
          <Dialog.Root open={confirming} onOpenChange={setConfirming}>
            <Dialog.Trigger asChild>
              <button className="ghost" data-testid="paper-reset-open">
                Reset paper account
              </button>
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="paper-overlay" />
              <Dialog.Content className="paper-dialog" data-testid="paper-reset-dialog">
                <Dialog.Title>Reset the paper account?</Dialog.Title>
                <Dialog.Description>
                  All open orders are cancelled, every position is cleared and the balance returns to {Number(start).toLocaleString()} USDC. The current session is archived and stays viewable under
                  “Past sessions”.
                </Dialog.Description>
                {reset.error ? <p className="paper-error" data-testid="paper-reset-error">{String((reset.error as Error).message)}</p> : null}
                <div className="paper-buttons">
                  <Dialog.Close asChild>
                    <button data-testid="paper-reset-cancel">Keep trading</button>
                  </Dialog.Close>
                  <button
                    className="danger"
                    data-testid="paper-reset-confirm"
                    disabled={reset.isPending}
                    onClick={() => reset.mutate(undefined, { onSuccess: () => setConfirming(false) })}
                  >
                    {reset.isPending ? 'Resetting…' : 'Reset and archive'}
                  </button>
                </div>
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
          {reset.data ? (
            <span className="dim" data-testid="paper-reset-done">
              Reset: session #{reset.data.session.id} archived, balance {Number(reset.data.balance).toLocaleString()} USDC.
            </span>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}

function SessionCard({ s }: { s: PaperSession }) {
  return (
    <div className="paper-session" data-testid="paper-session" data-trades={s.tradeCount} data-collateral={s.collateral}>
      <div>
        <b>#{s.id}</b> {when(s.startedAt)} → {when(s.endedAt)}
      </div>
      <div className="dim">
        Ended with {Number(s.collateral).toLocaleString()} USDC ({s.reserved} reserved) · {s.positions.length} positions · realised {money(s.realizedPnl)} · unrealised {money(s.unrealizedPnl)} ·{' '}
        {s.tradeCount} trades · {s.cancelledOrders} orders cancelled
      </div>
      {s.positions.length > 0 ? (
        <ul>
          {s.positions.map((p) => (
            <li key={p.asset}>
              {p.title} · {p.outcome}: {p.size} @ {p.avgPrice} (mark {p.curPrice}, PnL {money(p.cashPnl)})
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
