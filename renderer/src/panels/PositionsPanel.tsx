import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Empty } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useHolders, usePositions, useSelection, useSession } from '../api/hooks.js';
import { describeError, isMissingRoute } from '../api/describeError.js';
import { notify } from '../notify/notify.js';
import { toast } from 'sonner';
import { shortAddress } from '../format.js';

const num = (v: number | undefined, dp = 2) => (typeof v === 'number' && Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: dp, maximumFractionDigits: dp }) : '—');

export function PositionsPanel() {
  const session = useSession();
  const positions = usePositions(session.address);
  const qc = useQueryClient();
  // The engine's POST /redeem pays out a resolved market's winning shares (defect 5).
  const redeem = useMutation({
    mutationFn: (conditionId: string) => session.trader!.redeem(conditionId),
    onSuccess: () => toast.success('Redeemed', { description: 'The winning shares were paid out in collateral.' }),
    onError: (e) => {
      const d = describeError(e);
      notify.rejected(d.code, d.message);
    },
    onSettled: () => void qc.invalidateQueries(),
  });
  if (!session.address) return <Empty>Select a wallet to see its positions.</Empty>;
  if (positions.error && isMissingRoute(positions.error)) return <Empty>Positions are not available on this engine yet.</Empty>;
  const rows = positions.data ?? [];
  return (
    <div className="tab-body" data-testid="positions">
      <ErrorLine error={positions.error} />
      {rows.length === 0 && positions.isSuccess ? <Empty testId="positions-empty">No positions.</Empty> : null}
      {rows.length > 0 ? (
        <table className="grid">
          <thead>
            <tr>
              <th>Market</th>
              <th>Outcome</th>
              <th className="num">Shares</th>
              <th className="num">Avg</th>
              <th className="num">Mark</th>
              <th className="num">Value</th>
              <th className="num">P&amp;L</th>
              <th className="num">Realized</th>
              <th className="actions" />
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.asset} data-testid="position-row" data-asset={p.asset} data-size={String(p.size)}>
                <td className="ellipsis">{p.title}</td>
                <td>{p.outcome}</td>
                <td className="num">{num(p.size)}</td>
                <td className="num">{num(p.avgPrice, 4)}</td>
                <td className="num">{num(p.curPrice, 4)}</td>
                <td className="num">{num(p.currentValue)}</td>
                <td className={`num ${p.cashPnl >= 0 ? 'up' : 'down'}`}>
                  {num(p.cashPnl)} <span className="dim">({num(p.percentPnl, 1)}%)</span>
                </td>
                <td className="num">{num(p.realizedPnl)}</td>
                <td className="actions">
                  {p.redeemable ? (
                    <>
                      <span className="badge ok">REDEEMABLE</span>{' '}
                      <button className="small" data-testid="redeem" disabled={!session.trader?.hasCredentials || redeem.isPending} onClick={() => redeem.mutate(p.conditionId)}>
                        Redeem
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function HoldersPanel() {
  const { market } = useSelection();
  const holders = useHolders(market?.condition_id);
  if (!market) return <Empty>Select a market.</Empty>;
  if (holders.error && isMissingRoute(holders.error)) return <Empty>Holders are not available on this engine yet.</Empty>;
  const groups = holders.data ?? [];
  return (
    <div className="tab-body holders" data-testid="holders">
      <ErrorLine error={holders.error} />
      {groups.length === 0 && holders.isSuccess ? <Empty testId="holders-empty">Nobody holds this market yet.</Empty> : null}
      <div className="holder-groups">
        {groups.map((g) => {
          const idx = Number(g.token.split(':').pop());
          return (
            <div key={g.token} className="holder-group">
              <h3>{market.tokens[idx]?.outcome ?? g.token}</h3>
              <table className="grid compact">
                <tbody>
                  {g.holders.map((h, i) => (
                    <tr key={h.proxyWallet} data-testid="holder-row" data-wallet={h.proxyWallet}>
                      <td className="dim">{i + 1}</td>
                      <td className="mono" title={h.proxyWallet}>
                        {h.pseudonym || shortAddress(h.proxyWallet)}
                      </td>
                      <td className="num">{num(h.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        })}
      </div>
    </div>
  );
}
