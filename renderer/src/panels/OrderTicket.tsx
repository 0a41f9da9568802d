import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { Panel } from '../components/Panel.js';
import { traderKey, useBalance, useBook, useMarkets, useOpenOrders, usePositions, useSelection, useSession } from '../api/hooks.js';
import { presetSize, sellableShares } from '../ticket/sellable.js';
import { limitOrderAmounts } from '../api/clientAdapter.js';
import type { OrderType } from '../../../engine/protocol/eip712.js';
import { useUi } from '../state/uiStore.js';
import { gtdExpiration, previewTicket } from '../ticket/ticketMath.js';
import { TICKET_DEFAULTS, ticketIssues, ticketSchema, type TicketRules, type TicketValues } from '../ticket/ticketSchema.js';
import { baseUnitsToDisplay, fixedDecimals, shortRecordId, tickDecimals } from '../format.js';
import { fatFingerWarnings, previewAgainstBook, startingPrice } from '../ticket/bookPreview.js';
import { bookLadder } from '../ladder/bookLadder.js';
import { marketOrderPlan } from '../ticket/marketOrderPlan.js';
import { notify } from '../notify/notify.js';
import { orderText } from '../notify/orderText.js';
import { announceFill } from '../notify/useOrderWatcher.js';
import { useRejections } from '../account/orderHistory.js';
import { translateRejection } from '../notify/translateRejection.js';
import { describeError } from '../api/describeError.js';
import { useEngineBack } from '../api/engineState.js';
import { formatUnits } from '../../../engine/protocol/amounts.js';
import { isTyping } from './MarketsPanel.js';
import type { OrderRecord, PlacementResult } from '../api/types.js';
import '../ticket/ticket.css';

const TYPES: { value: OrderType; label: string; hint: string }[] = [
  { value: 'GTC', label: 'GTC', hint: 'Good till cancelled: rests on the book until it fills or you cancel it.' },
  { value: 'GTD', label: 'GTD', hint: 'Good till date: rests on the book until the expiry you set, then cancels itself.' },
  { value: 'FOK', label: 'FOK', hint: 'Fill or kill: the whole size fills at once at this price or better, or nothing does.' },
  { value: 'FAK', label: 'FAK', hint: 'Fill and kill: takes what the book has now at this price or better, cancels the rest.' },
];

export function OrderTicket() {
  const { market, outcomeIndex, tokenId } = useSelection();
  const selectOutcome = useUi((s) => s.selectOutcome);
  const outcomeName = market?.tokens[outcomeIndex]?.outcome ?? '';
  const prefill = useUi((s) => s.prefill);
  const session = useSession();
  const { data: markets } = useMarkets();
  const qc = useQueryClient();
  // The ticket's inputs live in react-hook-form; its rules are a zod schema built from the market (below).
  // The schema depends on the book (market mode), which loads below: the resolver reads the latest one.
  const resolverRef = useRef<Resolver<TicketValues>>(undefined);
  const form = useForm<TicketValues>({ defaultValues: TICKET_DEFAULTS, mode: 'onChange', resolver: (values, ctx, opts) => resolverRef.current!(values, ctx, opts) });
  const { register, setValue, control } = form;
  const v = useWatch({ control }) as TicketValues;
  const { side, mode, orderType, price, size, amount, gtdMinutes, postOnly } = v;
  const set = <K extends keyof TicketValues>(k: K, value: TicketValues[K]) => setValue(k, value as never, { shouldValidate: true, shouldDirty: true });
  const [confirming, setConfirming] = useState(false);
  const confirmOrders = useUi((s) => s.confirmOrders);
  const setConfirmOrders = useUi((s) => s.setConfirmOrders);
  const sending = useRef(false);
  const priceRef = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const { data: book } = useBook(tokenId);
  const balance = useBalance(session.trader);
  const ladder = useMemo(() => (book ? bookLadder(book, 1) : undefined), [book]);
  // What the selected outcome's SELL can use: the position less the open sells (issue 23, item 9).
  const positions = usePositions(session.address);
  const openOrders = useOpenOrders(session.trader);
  const sellable = useMemo(() => {
    if (!tokenId || !positions.data) return undefined;
    const held = positions.data.find((p) => p.asset === tokenId)?.size;
    const sells = (openOrders.data ?? []).filter((o) => o.assetId === tokenId && o.side === 'SELL');
    return sellableShares(outcomeName, held, sells);
  }, [tokenId, positions.data, openOrders.data, outcomeName]);

  // A click in the book fills side, price and size.
  useEffect(() => {
    if (!prefill) return;
    set('side', prefill.side);
    if (prefill.mode) {
      set('mode', prefill.mode);
      set('orderType', prefill.mode === 'market' ? 'FAK' : 'GTC');
    }
    set('price', prefill.price);
    if (prefill.size) set('size', trimSize(prefill.size));
    priceRef.current?.focus();
    // Only a new prefill (a click in the book) writes the ticket.
  }, [prefill]);

  // Another outcome or market: a price typed for the old book means nothing here (defect 6).
  useEffect(() => {
    setValue('price', '');
    place.reset();
    // Only a new token resets the ticket.
  }, [tokenId]);

  // B / S pick the side and jump to the price, from anywhere outside a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'b' || e.key === 's') {
        e.preventDefault();
        setValue('side', e.key === 'b' ? 'BUY' : 'SELL');
        priceRef.current?.focus();
        priceRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setValue]);

  const tick = String(market?.minimum_tick_size ?? '0.01');
  const [slippageTicks, setSlippageTicks] = useState(0);
  const marketPlan = useMemo(
    () => (mode === 'market' && book ? marketOrderPlan({ side, bids: book.bids, asks: book.asks, ...(side === 'BUY' ? { amount } : { size }), tickSize: tick, slippageTicks }) : undefined),
    [mode, book, side, amount, size, tick, slippageTicks],
  );
  // What will be signed: in market mode the worst level the amount reaches (plus the slippage), and
  // for a BUY the size that amount pays for at that limit (marketOrderPlan).
  const ePrice = mode === 'market' ? (marketPlan?.price ?? '') : price;
  const eSize = mode === 'market' && side === 'BUY' ? (marketPlan?.size ?? '') : size;
  const preview = useMemo(
    () => previewTicket({ side, price: ePrice, size: eSize, tickSize: tick, minOrderSize: String(market?.minimum_order_size ?? '0') }),
    [side, ePrice, eSize, tick, market?.minimum_order_size],
  );
  const amounts = useMemo(() => {
    if (!preview.ok) return undefined;
    try {
      return limitOrderAmounts({ side, price: ePrice, size: eSize, tickSize: tick });
    } catch {
      return undefined;
    }
  }, [preview.ok, side, ePrice, eSize, tick]);

  const bookPreview = useMemo(
    () =>
      book && preview.ok
        ? previewAgainstBook({ side, bids: book.bids, asks: book.asks, limit: ePrice, size: eSize, ...(market?.fee_schedule ? { feeSchedule: market.fee_schedule } : {}), immediateOnly: orderType === 'FOK' || orderType === 'FAK' })
        : undefined,
    [book, preview.ok, side, ePrice, eSize, market?.fee_schedule, orderType],
  );
  const warnings = fatFingerWarnings({
    // A market order's price is the book's own level: only a limit the trader typed can be a fat finger.
    price: mode === 'limit' ? ePrice : undefined,
    mid: ladder?.mid,
    cost: side === 'BUY' ? bookPreview?.cost : undefined,
    balance: balance.data ? formatUnits(BigInt(balance.data.balance)) : undefined,
  });

  const gtdLifetime = Number(gtdMinutes) * 60;
  // The market's rules, as the zod schema the form validates with; issues are computed on every render
  // (the book and the market change without a keystroke) and checked once more by handleSubmit before
  // the confirmation. The balance is not a rule: it is the confirmation's fat-finger warning.
  const minOrderSize = String(market?.minimum_order_size ?? '0');
  const rules = useMemo<TicketRules>(
    () => ({
      tickSize: tick,
      minOrderSize,
      ...(sellable ? { sellable } : {}),
      effective: (t) => {
        if (t.mode === 'limit') return { price: t.price, size: t.size };
        const plan = book ? marketOrderPlan({ side: t.side, bids: book.bids, asks: book.asks, ...(t.side === 'BUY' ? { amount: t.amount } : { size: t.size }), tickSize: tick, slippageTicks }) : undefined;
        return plan ? { price: plan.price, size: t.side === 'BUY' ? plan.size : t.size } : undefined;
      },
    }),
    [tick, minOrderSize, book, slippageTicks, sellable],
  );
  const issues = ticketIssues(rules, v);
  const valid = Object.keys(issues).length === 0;
  resolverRef.current = useMemo(() => zodResolver(ticketSchema(rules)), [rules]);

  // A refused order is never stored by the exchange: the Order history keeps what was sent and why.
  const recordRejection = useRejections((st) => st.record);
  const rememberRejection = (code: string | null | undefined, message: string | null | undefined) => {
    if (!session.address || !market) return;
    const t = translateRejection(code, message);
    recordRejection(session.address, { at: Date.now(), market: market.condition_id, outcome: outcomeName, side, price: ePrice, size: eSize, type: orderType, code: t.code, reason: t.title });
  };
  const place = useMutation({
    mutationFn: async (): Promise<PlacementResult> => {
      if (!session.trader || !market || !tokenId) throw new Error('Select a wallet, an API key and a market first.');
      return session.trader.placeOrder({
        market,
        tokenId,
        side,
        price: ePrice,
        size: eSize,
        orderType,
        ...(orderType === 'GTD' ? { expiration: gtdExpiration(Date.now(), gtdLifetime) } : {}),
        ...(postOnly && (orderType === 'GTC' || orderType === 'GTD') ? { postOnly: true } : {}),
      });
    },
    onSuccess: (r) => {
      if (!r.success) {
        rememberRejection(r.error_code, r.error_msg);
        return void notify.rejected(r.error_code, r.error_msg);
      }
      const trader = session.trader;
      if (r.status === 'live') notify.placed(`${orderText({ side, size: eSize, outcome: outcomeName, price: ePrice, tick, ...(market ? { question: market.question } : {}) })} ${orderType}`);
      // A fill at placement (a market order, a marketable limit) never shows up as an open order for
      // the watcher to notice: announce what it filled here (issue 23, item 6).
      if (trader && r.order_id && r.status !== 'delayed') {
        void trader.order(r.order_id).then((o) => (o.sizeMatched !== '0' ? announceFill(trader, o, markets) : undefined), () => undefined);
      }
    },
    onError: (e) => {
      const d = describeError(e);
      rememberRejection(d.code, d.message);
      notify.rejected(d.code, d.message);
    },
    onSettled: () => {
      sending.current = false;
      void qc.invalidateQueries({ queryKey: ['trader'] });
      void qc.invalidateQueries({ queryKey: ['book'] });
      void qc.invalidateQueries({ queryKey: ['tape'] });
      void qc.invalidateQueries({ queryKey: ['positions'] });
    },
  });

  // Focus comes back to the ticket's button once an order is sent (the button was disabled while signing,
  // which drops the focus), unless the trader has moved it elsewhere meanwhile.
  const pending = place.isPending;
  const wasPending = useRef(false);
  useEffect(() => {
    const settled = wasPending.current && !pending;
    wasPending.current = pending;
    if (settled && (document.activeElement === null || document.activeElement === document.body)) submitRef.current?.focus();
  }, [pending]);

  // "Engine unreachable" is over once the engine answers again (issue 23, item 8).
  useEngineBack(() => {
    if (place.error && describeError(place.error).code === 'network_error') place.reset();
  });

  const canSubmit = !!session.trader?.hasCredentials && !!market && valid && !place.isPending && market.accepting_orders !== false;
  const blocker = !session.account
    ? 'Create or select a wallet to trade.'
    : !session.trader?.hasCredentials
      ? 'Create an API key for this wallet to trade.'
      : market?.accepting_orders === false
        ? 'This market is not accepting orders (paused or closed).'
        : undefined;

  // Double-submit guard: one order in flight, whatever the clicks and Enters.
  const send = () => {
    if (!canSubmit || sending.current) return;
    sending.current = true;
    setConfirming(false);
    place.mutate();
  };
  // Enter or the button: the schema checks the ticket once more, then the confirmation (or the send).
  const submit = (e?: React.FormEvent) => {
    e?.preventDefault();
    if (!canSubmit) return;
    void form.handleSubmit(() => {
      if (confirmOrders) setConfirming(true);
      else send();
    })();
  };
  const reason = blocker ?? (issues.price ?? issues.amount ?? issues.size ?? issues.gtdMinutes ?? issues.orderType);
  const dp = tickDecimals(tick);
  const priceField = register('price', { setValueAs: trim });
  return (
    <Panel title="Order ticket" className="ticket" testId="ticket-panel">
      <form onSubmit={submit} className="ticket-form">
        <div className="seg side-seg">
          <button type="button" className={`buy ${side === 'BUY' ? 'on' : ''}`} data-testid="ticket-side-buy" onClick={() => set('side', 'BUY')} title="Buy (B)">
            Buy
          </button>
          <button type="button" className={`sell ${side === 'SELL' ? 'on' : ''}`} data-testid="ticket-side-sell" onClick={() => set('side', 'SELL')} title="Sell (S)">
            Sell
          </button>
        </div>
        <div className="seg mode-seg" role="group" aria-label="Order mode">
          {(['limit', 'market'] as const).map((m) => (
            <button
              type="button"
              key={m}
              className={mode === m ? 'on' : ''}
              aria-pressed={mode === m}
              data-testid={`ticket-mode-${m}`}
              onClick={() => {
                set('mode', m);
                set('orderType', m === 'market' ? 'FAK' : 'GTC');
              }}
            >
              {m === 'limit' ? 'Limit' : 'Market'}
            </button>
          ))}
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
        {mode === 'market' && side === 'BUY' ? (
          <label className="field">
            <span>Amount ($)</span>
            <input inputMode="decimal" placeholder="dollars to spend" data-testid="ticket-amount" {...register('amount', { setValueAs: trim })} />
          </label>
        ) : null}
        {mode === 'market' ? (
          <div className="hint" data-testid="ticket-market-price">
            {marketPlan
              ? `Up to ${fixedDecimals(marketPlan.price, tickDecimals(tick))} · ${fixedDecimals(side === 'BUY' ? marketPlan.size : size, 2)} shares${marketPlan.maxSpend ? ` · spends at most ${fixedDecimals(marketPlan.maxSpend, 2)}` : ''}`
              : 'Nothing on the book to take.'}
          </div>
        ) : null}
        {mode === 'market' ? (
          <label className="field" title="How many ticks past the worst level the amount reaches the order may still fill; a buy's size shrinks so the amount still bounds the spend.">
            <span>Slippage (ticks of {tick})</span>
            <select data-testid="ticket-slippage" value={String(slippageTicks)} onChange={(e) => setSlippageTicks(Number(e.target.value))}>
              {[0, 1, 2, 5, 10].map((n) => (
                <option key={n} value={n}>
                  {n === 0 ? '0 (the level reached)' : `${n} tick${n > 1 ? 's' : ''}`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="field" hidden={mode === 'market'}>
          <span>Limit price</span>
          <input
            {...priceField}
            ref={(el) => {
              priceField.ref(el);
              priceRef.current = el;
            }}
            inputMode="decimal"
            placeholder={`tick ${tick}`}
            data-testid="ticket-price"
            onKeyDown={(e) => {
              if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
                e.preventDefault();
                // An empty price starts near the market, not at one tick (issue 14, 9).
                const p = form.getValues('price');
                set('price', p === '' ? startingPrice(side, ladder?.bestBid, ladder?.bestAsk) : stepPrice(p, tick, e.key === 'ArrowUp' ? 1 : -1));
              }
            }}
          />
        </label>
        {mode === 'limit' && price && issues.price ? <div className="field-error" data-testid="ticket-price-error">{issues.price}</div> : null}
        <label className="field" hidden={mode === 'market' && side === 'BUY'}>
          <span>Size (shares)</span>
          <input inputMode="decimal" placeholder={`min ${String(market?.minimum_order_size ?? '')}`} data-testid="ticket-size" {...register('size', { setValueAs: trim })} />
        </label>
        {side === 'SELL' && sellable ? (
          <div className="hint ticket-held" data-testid="ticket-held">
            <span>
              You hold {fixedDecimals(sellable.held, 2)} {sellable.outcome}
              {sellable.reserved !== '0' ? ` · ${fixedDecimals(sellable.reserved, 2)} in open sells` : ''}
            </span>
            <span className="presets">
              {([25, 50, 100] as const).map((pct) => (
                <button
                  type="button"
                  key={pct}
                  className="small"
                  data-testid={pct === 100 ? 'ticket-preset-max' : `ticket-preset-${pct}`}
                  disabled={sellable.available === '0'}
                  title={`Sell ${pct} % of the ${fixedDecimals(sellable.available, 2)} shares you can sell`}
                  onClick={() => set('size', presetSize(sellable.available, pct))}
                >
                  {pct === 100 ? 'Max' : `${pct}%`}
                </button>
              ))}
            </span>
          </div>
        ) : null}
        {size && issues.size ? <div className="field-error" data-testid="ticket-size-error">{issues.size}</div> : null}
        {mode === 'market' && side === 'BUY' && amount && issues.amount ? <div className="field-error" data-testid="ticket-amount-error">{issues.amount}</div> : null}
        <div className="field-row">
          <label className="field">
            <span>Type</span>
            <select data-testid="ticket-type" title={TYPES.find((t) => t.value === orderType)?.hint} {...register('orderType')}>
              {TYPES.filter((t) => (mode === 'market' ? t.value === 'FOK' || t.value === 'FAK' : true)).map((t) => (
                <option key={t.value} value={t.value} title={t.hint}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          {orderType === 'GTD' ? (
            <label className="field">
              <span>Expires in (min)</span>
              <input inputMode="numeric" data-testid="ticket-expiry" {...register('gtdMinutes', { setValueAs: trim })} />
            </label>
          ) : null}
        </div>
        <div className="hint" data-testid="ticket-type-help">
          {TYPES.find((t) => t.value === orderType)?.hint}
        </div>
        {issues.gtdMinutes ? <div className="field-error" data-testid="ticket-expiry-error">{issues.gtdMinutes}</div> : null}
        {orderType === 'GTD' && !issues.gtdMinutes ? (
          <div className="hint" data-testid="ticket-expiry-at">
            Expires {new Date((gtdExpiration(Date.now(), gtdLifetime) - 60) * 1000).toLocaleTimeString()} (signed with the 60 s buffer)
          </div>
        ) : null}
        {orderType === 'GTC' || orderType === 'GTD' ? (
          <label className="check">
            <input type="checkbox" data-testid="ticket-post-only" {...register('postOnly')} /> Post only (never take liquidity)
          </label>
        ) : null}
        <dl className="ticket-summary" data-testid="ticket-summary">
          <div>
            <dt>{side === 'BUY' ? 'Cost' : 'Proceeds'}</dt>
            <dd data-testid="ticket-cost">{bookPreview ? fixedDecimals(bookPreview.cost, 4) : preview.notional !== undefined ? fixedDecimals(preview.notional, 4) : '—'}</dd>
          </div>
          <div>
            <dt>Fills now</dt>
            <dd data-testid="ticket-fills-now">
              {bookPreview ? `${fixedDecimals(bookPreview.filled, 2)} sh${bookPreview.averagePrice ? ` · avg ${fixedDecimals(bookPreview.averagePrice, dp + 1)} · worst ${fixedDecimals(bookPreview.worstPrice, dp)}` : ''}` : '—'}
            </dd>
          </div>
          {bookPreview && bookPreview.rest !== '0' ? (
            <div>
              <dt>{orderType === 'FOK' || orderType === 'FAK' ? 'Killed' : 'Rests'}</dt>
              <dd data-testid="ticket-rest">{fixedDecimals(bookPreview.rest, 2)} sh</dd>
            </div>
          ) : null}
          <div>
            <dt>Fee (est.) · impact</dt>
            <dd>{bookPreview ? `${fixedDecimals(bookPreview.fee, 4)} · ${bookPreview.priceImpact ? fixedDecimals(bookPreview.priceImpact, dp) : '0'}` : '—'}</dd>
          </div>
          <div>
            <dt>Max loss</dt>
            <dd data-testid="ticket-max-loss">{bookPreview ? fixedDecimals(bookPreview.maxLoss, 2) : '—'}</dd>
          </div>
          {side === 'BUY' ? (
            <div>
              <dt>Payout if {outcomeName || 'it'} wins</dt>
              <dd>{preview.maxPayout !== undefined ? fixedDecimals(preview.maxPayout, 2) : '—'}</dd>
            </div>
          ) : null}
        </dl>
        {/* The signed order's raw amounts, for the curious: out of the way of the trade (issue 23, item 12). */}
        <details className="ticket-details" data-testid="ticket-details">
          <summary>Details: the signed amounts</summary>
          <dl className="ticket-summary">
            <div>
              <dt title="What you give, in base units (6 decimals): USDC for a buy, shares for a sell">makerAmount</dt>
              <dd className="mono" data-testid="ticket-maker-amount">{amounts ? `${amounts.makerAmount} (${baseUnitsToDisplay(amounts.makerAmount, 4)})` : '—'}</dd>
            </div>
            <div>
              <dt title="What you get, in base units (6 decimals): shares for a buy, USDC for a sell">takerAmount</dt>
              <dd className="mono" data-testid="ticket-taker-amount">{amounts ? `${amounts.takerAmount} (${baseUnitsToDisplay(amounts.takerAmount, 4)})` : '—'}</dd>
            </div>
          </dl>
        </details>
        <button type="submit" ref={submitRef} className={`submit ${side === 'BUY' ? 'buy' : 'sell'}`} disabled={!canSubmit} data-testid="ticket-submit">
          {place.isPending ? 'Signing…' : `${side === 'BUY' ? 'Buy' : 'Sell'} ${outcomeName} ${orderType}`}
        </button>
        {reason ? <div className="hint" data-testid="ticket-blocker">{reason}</div> : null}
        <label className="check">
          <input type="checkbox" checked={confirmOrders} onChange={(e) => setConfirmOrders(e.target.checked)} data-testid="ticket-confirm-toggle" /> Confirm before sending
        </label>
        {place.error ? <RejectionLine code={describeError(place.error).code} message={describeError(place.error).message} testId="ticket-error" /> : null}
        {place.data ? <PlacementLine result={place.data} /> : null}
      </form>
      <Dialog.Root open={confirming} onOpenChange={setConfirming}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content
            className="dialog"
            data-testid="order-confirm-dialog"
            // No trigger element: without this, closing would leave the focus on the page's body.
            onCloseAutoFocus={(e) => {
              e.preventDefault();
              submitRef.current?.focus();
            }}
          >
            <Dialog.Title>
              {side === 'BUY' ? 'Buy' : 'Sell'} {fixedDecimals(eSize, 2)} {outcomeName} @ {ePrice} ({orderType})
            </Dialog.Title>
            <Dialog.Description className="dim">{market?.question}</Dialog.Description>
            <dl className="ticket-summary">
              <div>
                <dt>{side === 'BUY' ? 'Cost' : 'Proceeds'}</dt>
                <dd>{bookPreview ? fixedDecimals(bookPreview.cost, 2) : '—'}</dd>
              </div>
              <div>
                <dt>Fills now</dt>
                <dd>{bookPreview ? fixedDecimals(bookPreview.filled, 2) : '—'} sh</dd>
              </div>
              <div>
                <dt>Max loss</dt>
                <dd>{bookPreview ? fixedDecimals(bookPreview.maxLoss, 2) : '—'}</dd>
              </div>
            </dl>
            {warnings.map((w) => (
              <div key={w} className="field-error" data-testid="fat-finger-warning" role="alert">
                ⚠ {w}
              </div>
            ))}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" data-testid="order-cancel">Back</button>
              </Dialog.Close>
              <button type="button" className={`submit ${side === 'BUY' ? 'buy' : 'sell'}`} data-testid="order-confirm" onClick={send} autoFocus>
                {warnings.length ? 'Send anyway' : 'Send order'}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </Panel>
  );
}

/** A rejection in the ticket: the translated title and what to do, ids shortened (defect 4). */
function RejectionLine({ code, message, testId }: { code: string | null | undefined; message: string | null | undefined; testId: string }) {
  const t = translateRejection(code, message);
  return (
    <div className="error-line" data-testid={testId} role="alert" title={t.detail}>
      <b>{t.title}</b>
      <span className="err-msg">{t.action}</span>
      <code className="err-code" data-testid="ticket-result-code">{t.code}</code>
    </div>
  );
}

function PlacementLine({ result }: { result: PlacementResult }) {
  const session = useSession();
  // The placement answer is a moment; the order lives on: follow it until it is final (defect 7).
  const followed = useQuery({
    queryKey: traderKey(session.trader, 'order', result.order_id),
    queryFn: () => session.trader!.order(result.order_id!),
    enabled: !!result.success && !!result.order_id && !!session.trader,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'filled' || q.state.data.status === 'cancelled') ? false : 1000),
  });
  if (!result.success) {
    return (
      <div className="placement bad" data-testid="ticket-result" data-success="false" data-status={result.status ?? ''}>
        <RejectionLine code={result.error_code} message={result.error_msg} testId="ticket-rejection" />
      </div>
    );
  }
  const o: OrderRecord | undefined = followed.data;
  const state = o ? (o.status === 'open' ? 'live' : o.status.replace('_', ' ')) : (result.status ?? 'accepted');
  return (
    <div className="placement ok" data-testid="ticket-result" data-success="true" data-status={result.status ?? ''} data-order-status={o?.status ?? ''}>
      <span className="badge ok" data-testid="ticket-result-status">{state.toUpperCase()}</span>
      {o ? (
        <span data-testid="ticket-result-filled">
          filled {fixedDecimals(o.sizeMatched, 2)} of {fixedDecimals(o.originalSize, 2)}
        </span>
      ) : null}
      <span className="mono" title={result.order_id ?? ''}>
        order {shortRecordId(result.order_id)}
      </span>
    </div>
  );
}

const trim = (s: unknown) => (typeof s === 'string' ? s.trim() : s);

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
