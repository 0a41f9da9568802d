import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Panel } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useSelection, useSession } from '../api/hooks.js';
import { limitOrderAmounts } from '../api/clientAdapter.js';
import type { OrderType, Side } from '../../../engine/protocol/eip712.js';
import { useUi } from '../state/uiStore.js';
import { gtdExpiration, previewTicket } from '../ticket/ticketMath.js';
import { baseUnitsToDisplay, fixedDecimals, shortId } from '../format.js';
import { isTyping } from './MarketsPanel.js';
import type { PlacementResult } from '../api/types.js';

const TYPES: { value: OrderType; label: string; hint: string }[] = [
  { value: 'GTC', label: 'GTC', hint: 'Good till cancelled: rests on the book' },
  { value: 'GTD', label: 'GTD', hint: 'Good till date: rests until the expiry' },
  { value: 'FOK', label: 'FOK', hint: 'Fill or kill: all at once or nothing' },
  { value: 'FAK', label: 'FAK', hint: 'Fill and kill: fill what is there, cancel the rest' },
];

export function OrderTicket() {
  const { market, outcomeIndex, tokenId } = useSelection();
  const selectOutcome = useUi((s) => s.selectOutcome);
  const prefill = useUi((s) => s.prefill);
  const session = useSession();
  const qc = useQueryClient();
  const [side, setSide] = useState<Side>('BUY');
  const [price, setPrice] = useState('');
  const [size, setSize] = useState('');
  const [orderType, setOrderType] = useState<OrderType>('GTC');
  const [gtdMinutes, setGtdMinutes] = useState('60');
  const priceRef = useRef<HTMLInputElement>(null);

  // A click in the book fills side, price and size.
  useEffect(() => {
    if (!prefill) return;
    setSide(prefill.side);
    setPrice(prefill.price);
    if (prefill.size) setSize(trimSize(prefill.size));
    priceRef.current?.focus();
  }, [prefill]);

  // B / S pick the side and jump to the price, from anywhere outside a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'b' || e.key === 's') {
        e.preventDefault();
        setSide(e.key === 'b' ? 'BUY' : 'SELL');
        priceRef.current?.focus();
        priceRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const tick = String(market?.minimum_tick_size ?? '0.01');
  const preview = useMemo(
    () => previewTicket({ side, price, size, tickSize: tick, minOrderSize: String(market?.minimum_order_size ?? '0') }),
    [side, price, size, tick, market?.minimum_order_size],
  );
  const amounts = useMemo(() => {
    if (!preview.ok) return undefined;
    try {
      return limitOrderAmounts({ side, price, size, tickSize: tick });
    } catch {
      return undefined;
    }
  }, [preview.ok, side, price, size, tick]);

  const gtdLifetime = Number(gtdMinutes) * 60;
  const gtdOk = orderType !== 'GTD' || (Number.isFinite(gtdLifetime) && gtdLifetime >= 60);

  const place = useMutation({
    mutationFn: async (): Promise<PlacementResult> => {
      if (!session.trader || !market || !tokenId) throw new Error('Select a wallet, an API key and a market first.');
      return session.trader.placeOrder({
        market,
        tokenId,
        side,
        price,
        size,
        orderType,
        ...(orderType === 'GTD' ? { expiration: gtdExpiration(Date.now(), gtdLifetime) } : {}),
      });
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['trader'] });
      void qc.invalidateQueries({ queryKey: ['book'] });
      void qc.invalidateQueries({ queryKey: ['tape'] });
      void qc.invalidateQueries({ queryKey: ['positions'] });
    },
  });

  const canSubmit = !!session.trader?.hasCredentials && !!market && preview.ok && gtdOk && !place.isPending && market.accepting_orders !== false;
  const blocker = !session.account
    ? 'Create or select a wallet to trade.'
    : !session.trader?.hasCredentials
      ? 'Create an API key for this wallet to trade.'
      : market?.accepting_orders === false
        ? 'This market is not accepting orders (paused or closed).'
        : undefined;

  const submit = (e?: React.FormEvent) => {
    e?.preventDefault();
    if (canSubmit) place.mutate();
  };

  const outcomeName = market?.tokens[outcomeIndex]?.outcome ?? '';
  return (
    <Panel title="Order ticket" className="ticket" testId="ticket-panel">
      <form onSubmit={submit} className="ticket-form">
        <div className="seg side-seg">
          <button type="button" className={`buy ${side === 'BUY' ? 'on' : ''}`} data-testid="ticket-side-buy" onClick={() => setSide('BUY')} title="Buy (B)">
            Buy
          </button>
          <button type="button" className={`sell ${side === 'SELL' ? 'on' : ''}`} data-testid="ticket-side-sell" onClick={() => setSide('SELL')} title="Sell (S)">
            Sell
          </button>
        </div>
        {market ? (
          <div className="seg outcome-seg">
            {market.tokens.map((t, i) => (
              <button
                type="button"
                key={t.token_id}
                className={i === outcomeIndex ? 'on' : ''}
                data-testid={`ticket-outcome-${i}`}
                onClick={() => selectOutcome(i)}
              >
                {t.outcome}
              </button>
            ))}
          </div>
        ) : null}
        <label className="field">
          <span>Limit price</span>
          <input
            ref={priceRef}
            inputMode="decimal"
            placeholder={`tick ${tick}`}
            value={price}
            data-testid="ticket-price"
            onChange={(e) => setPrice(e.target.value.trim())}
            onKeyDown={(e) => {
              if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
                e.preventDefault();
                setPrice((p) => stepPrice(p, tick, e.key === 'ArrowUp' ? 1 : -1));
              }
            }}
          />
        </label>
        {price && preview.priceError ? <div className="field-error" data-testid="ticket-price-error">{preview.priceError}</div> : null}
        <label className="field">
          <span>Size (shares)</span>
          <input inputMode="decimal" placeholder={`min ${String(market?.minimum_order_size ?? '')}`} value={size} data-testid="ticket-size" onChange={(e) => setSize(e.target.value.trim())} />
        </label>
        {size && preview.sizeError ? <div className="field-error" data-testid="ticket-size-error">{preview.sizeError}</div> : null}
        <div className="field-row">
          <label className="field">
            <span>Type</span>
            <select value={orderType} data-testid="ticket-type" onChange={(e) => setOrderType(e.target.value as OrderType)} title={TYPES.find((t) => t.value === orderType)?.hint}>
              {TYPES.map((t) => (
                <option key={t.value} value={t.value} title={t.hint}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          {orderType === 'GTD' ? (
            <label className="field">
              <span>Expires in (min)</span>
              <input inputMode="numeric" value={gtdMinutes} data-testid="ticket-expiry" onChange={(e) => setGtdMinutes(e.target.value.trim())} />
            </label>
          ) : null}
        </div>
        {!gtdOk ? <div className="field-error">A GTD order must live at least one minute.</div> : null}
        <dl className="ticket-summary" data-testid="ticket-summary">
          <div>
            <dt>{side === 'BUY' ? 'Cost' : 'Proceeds'}</dt>
            <dd data-testid="ticket-cost">{preview.notional !== undefined ? fixedDecimals(preview.notional, 4) : '—'}</dd>
          </div>
          {side === 'BUY' ? (
            <div>
              <dt>Payout if {outcomeName || 'it'} wins</dt>
              <dd>{preview.maxPayout !== undefined ? fixedDecimals(preview.maxPayout, 2) : '—'}</dd>
            </div>
          ) : null}
          <div>
            <dt>makerAmount</dt>
            <dd className="mono" data-testid="ticket-maker-amount">{amounts ? `${amounts.makerAmount} (${baseUnitsToDisplay(amounts.makerAmount, 4)})` : '—'}</dd>
          </div>
          <div>
            <dt>takerAmount</dt>
            <dd className="mono" data-testid="ticket-taker-amount">{amounts ? `${amounts.takerAmount} (${baseUnitsToDisplay(amounts.takerAmount, 4)})` : '—'}</dd>
          </div>
        </dl>
        <button type="submit" className={`submit ${side === 'BUY' ? 'buy' : 'sell'}`} disabled={!canSubmit} data-testid="ticket-submit">
          {place.isPending ? 'Signing…' : `${side === 'BUY' ? 'Buy' : 'Sell'} ${outcomeName} ${orderType}`}
        </button>
        {blocker ? <div className="hint" data-testid="ticket-blocker">{blocker}</div> : null}
        <ErrorLine error={place.error} testId="ticket-error" />
        {place.data ? <PlacementLine result={place.data} /> : null}
      </form>
    </Panel>
  );
}

function PlacementLine({ result }: { result: PlacementResult }) {
  return (
    <div className={`placement ${result.success ? 'ok' : 'bad'}`} data-testid="ticket-result" data-success={String(result.success)} data-status={result.status ?? ''}>
      {result.success ? (
        <>
          <span className="badge ok" data-testid="ticket-result-status">{(result.status ?? 'accepted').toUpperCase()}</span>
          <span className="mono" title={result.order_id ?? ''}>
            order {shortId(result.order_id, 10)}
          </span>
          {result.error_code ? <code className="err-code">{result.error_code}</code> : null}
          {result.error_msg ? <span className="dim">{result.error_msg}</span> : null}
        </>
      ) : (
        <>
          <code className="err-code" data-testid="ticket-result-code">{result.error_code ?? 'rejected'}</code>
          <span className="err-msg">{result.error_msg}</span>
        </>
      )}
    </div>
  );
}

function trimSize(size: string): string {
  const m = /^(\d+)(?:\.(\d{1,2}))?/.exec(size);
  return m ? (m[2] ? `${m[1]}.${m[2]}` : m[1]!) : size;
}

/** Arrow keys move the price by one tick, in exact micro-units. */
function stepPrice(current: string, tick: string, dir: 1 | -1): string {
  const scale = 1_000_000n;
  const toM = (s: string) => {
    const m = /^(\d*)(?:\.(\d{0,6}))?$/.exec(s);
    if (!m) return undefined;
    return BigInt(m[1] || '0') * scale + BigInt((m[2] ?? '').padEnd(6, '0') || '0');
  };
  const t = toM(tick) ?? 10_000n;
  const c = toM(current) ?? 500_000n;
  let next = ((c / t) + BigInt(dir)) * t;
  if (next < t) next = t;
  if (next > scale - t) next = scale - t;
  const whole = next / scale;
  const frac = (next % scale).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}
