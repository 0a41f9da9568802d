import { useSelection } from '../api/hooks.js';
import { useUi } from '../state/uiStore.js';
import { priceText, tickDecimals } from '../format.js';
import { useBook } from '../api/hooks.js';
import { FavouriteToggle } from '../watchlist/FavouriteToggle.js';
import { MirrorBadge, MirrorNotice } from '../mirror/MirrorBadge.js';

export function MarketHeader() {
  const { market, outcomeIndex, tokenId } = useSelection();
  const selectOutcome = useUi((s) => s.selectOutcome);
  const priceStyle = useUi((s) => s.priceStyle);
  const { data: book } = useBook(tokenId);
  if (!market) return <div className="market-header muted">Select a market</div>;
  const dp = tickDecimals(market.minimum_tick_size);
  return (
    <div className="market-header" data-testid="market-header">
      <div className="mh-title">
        <h1 data-testid="market-question">{market.question}</h1>
        <FavouriteToggle conditionId={market.condition_id} question={market.question} />
        <div className="mh-badges">
          <MirrorBadge market={market} />
          {market.neg_risk ? <span className="badge neg">NEG RISK</span> : null}
          {market.paused ? <span className="badge warn">PAUSED</span> : null}
          {market.tokens.some((t) => t.winner) ? (
            <span className="badge ok" data-testid="market-resolved">Resolved: {market.tokens.find((t) => t.winner)!.outcome}</span>
          ) : market.closed ? (
            <span className="badge dim">CLOSED</span>
          ) : null}
          <span className="mono dim" title={market.condition_id}>
            {market.condition_id.slice(0, 10)}…
          </span>
        </div>
      </div>
      <MirrorNotice market={market} />
      <div className="mh-row">
        <div className="outcome-tabs" role="tablist">
          {market.tokens.map((t, i) => (
            <button
              key={t.token_id}
              role="tab"
              aria-selected={i === outcomeIndex}
              className={`outcome-tab ${i === outcomeIndex ? 'active' : ''} ${t.outcome.toLowerCase() === 'no' ? 'no' : 'yes'}`}
              data-testid={`outcome-tab-${i}`}
              onClick={() => selectOutcome(i)}
            >
              <span>{t.outcome}</span>
              <b>{priceText(t.price, dp, priceStyle)}</b>
            </button>
          ))}
        </div>
        <dl className="stats">
          <div>
            <dt>Last</dt>
            <dd data-testid="last-trade-price">{priceText(book?.last_trade_price, dp, priceStyle)}</dd>
          </div>
          <div>
            <dt>Tick</dt>
            <dd data-testid="market-tick">{String(market.minimum_tick_size)}</dd>
          </div>
          <div>
            <dt>Min size</dt>
            <dd>{String(market.minimum_order_size)}</dd>
          </div>
          <div>
            <dt>Token</dt>
            <dd className="mono" title={tokenId}>
              {tokenId ? `${tokenId.slice(0, 6)}…${tokenId.slice(-4)}` : '—'}
            </dd>
          </div>
        </dl>
      </div>
    </div>
  );
}
