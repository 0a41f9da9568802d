import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { publicApi } from '../api/clientAdapter.js';
import { useBalance, useMarkets, useMyTrades, useSession } from '../api/hooks.js';
import type { PlacementResult } from '../api/types.js';
import { useUi } from '../state/uiStore.js';
import { activeCredentials, useWallets } from '../wallets/walletStore.js';
import { baseUnitsToDisplay } from '../format.js';
import { planFirstOrder, type FirstOrderPlan } from './firstOrder.js';
import { useOnboarding } from './onboardingStore.js';
import './onboarding.css';

type Step = 'wallet' | 'key' | 'funded' | 'order';

/**
 * First run: wallet → API key → funded → a first order that fills, one click each, in a card that does
 * not block the terminal. Skippable; once filled or skipped it never shows again (persisted).
 */
export function Onboarding() {
  const finished = useOnboarding((s) => s.finished);
  const finish = useOnboarding((s) => s.finish);
  const session = useSession();
  const createBurner = useWallets((s) => s.createBurner);
  const addCredentials = useWallets((s) => s.addCredentials);
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const balance = useBalance(session.trader);
  const { data: markets } = useMarkets();
  const conditionId = useUi((s) => s.conditionId);
  const selectMarket = useUi((s) => s.selectMarket);
  const qc = useQueryClient();
  const [filled, setFilled] = useState<{ plan: FirstOrderPlan; result: PlacementResult } | null>(null);

  const hasKey = !!activeCredentials({ credentials, activeKey }, session.address);
  const funded = !!balance.data && BigInt(balance.data.balance) > 0n;
  const step: Step = !session.address ? 'wallet' : !hasKey ? 'key' : !funded ? 'funded' : 'order';

  // A trader who makes a first trade from the ticket instead has done what the card asks: it goes away.
  const myTrades = useMyTrades(step === 'order' && !finished ? session.trader : undefined);
  const tradedElsewhere = !filled && (myTrades.data?.length ?? 0) > 0;
  useEffect(() => {
    if (tradedElsewhere && !finished) finish('filled');
  }, [tradedElsewhere, finished, finish]);

  const createKey = useMutation({
    mutationFn: () => session.trader!.createApiKey(),
    onSuccess: (creds) => {
      addCredentials(session.address!, creds);
      void qc.invalidateQueries({ queryKey: ['trader'] });
    },
  });

  const firstOrder = useMutation({
    mutationFn: async () => {
      const plan = await planFirstOrder(markets ?? [], conditionId ?? undefined, (t) => publicApi.book(t));
      if (!plan) throw new Error('No open market has an ask to buy from right now. Try again in a moment, or skip and place a limit order.');
      selectMarket(plan.market.condition_id, plan.market.tokens.findIndex((t) => t.token_id === plan.tokenId));
      const result = await session.trader!.placeOrder({ market: plan.market, tokenId: plan.tokenId, side: 'BUY', price: plan.price, size: plan.size, orderType: 'FAK' });
      if (!result.success) throw new Error(result.error_msg || 'The order was rejected.');
      if (result.status !== 'matched') throw new Error('The book moved and the order did not fill; press again to buy at the new best ask.');
      return { plan, result };
    },
    onSuccess: (r) => {
      // Done as soon as it filled: a reload from here on never shows the card again.
      finish('filled');
      setFilled(r);
      void qc.invalidateQueries();
    },
  });

  if (finished && !filled) return null;
  const steps: Array<{ id: Step; label: string }> = [
    { id: 'wallet', label: 'Create a wallet' },
    { id: 'key', label: 'Create an API key' },
    { id: 'funded', label: 'Receive paper USDC' },
    { id: 'order', label: 'Place a first order' },
  ];
  const order: Step[] = ['wallet', 'key', 'funded', 'order'];
  const at = filled ? 4 : order.indexOf(step);
  const error = (createKey.error ?? firstOrder.error) as Error | null;

  return (
    <aside className="onboarding" aria-label="Getting started" data-testid="onboarding" data-step={filled ? 'done' : step}>
      <header>
        <b>Getting started</b>
        {!filled ? (
          <button className="link" data-testid="onboarding-skip" onClick={() => finish('skipped')}>
            Skip
          </button>
        ) : null}
      </header>
      <ol>
        {steps.map((s, i) => (
          <li key={s.id} className={i < at ? 'done' : i === at ? 'now' : ''}>
            {s.label}
          </li>
        ))}
      </ol>
      {filled ? (
        <div data-testid="onboarding-filled">
          <p>
            Filled: bought {filled.plan.size} {filled.plan.outcome} shares of “{filled.plan.market.question}” at {filled.plan.price}. It is in your positions.
          </p>
          <button
            data-testid="onboarding-done"
            data-order-id={filled.result.order_id ?? ''}
            onClick={() => setFilled(null)}
          >
            Start trading
          </button>
        </div>
      ) : step === 'wallet' ? (
        <div>
          <p>A burner wallet is a private key kept in this browser. Paper money only.</p>
          <button data-testid="onboarding-wallet" onClick={() => createBurner()}>
            Create wallet
          </button>
        </div>
      ) : step === 'key' ? (
        <div>
          <p>The wallet signs once to create API credentials; the first key brings the paper balance.</p>
          <button data-testid="onboarding-key" disabled={!session.trader || createKey.isPending} onClick={() => createKey.mutate()}>
            {createKey.isPending ? 'Signing…' : 'Create API key'}
          </button>
        </div>
      ) : step === 'funded' ? (
        <p data-testid="onboarding-funding">Waiting for the paper balance…</p>
      ) : (
        <div>
          <p>
            Funded with {baseUnitsToDisplay(balance.data?.balance)} USDC. Buy the minimum size at the best ask of an open market (a fill-and-kill order, so it fills or
            nothing happens).
          </p>
          <button data-testid="onboarding-order" disabled={firstOrder.isPending} onClick={() => firstOrder.mutate()}>
            {firstOrder.isPending ? 'Placing…' : 'Place first order'}
          </button>
        </div>
      )}
      {error ? (
        <p className="onboarding-error" data-testid="onboarding-error">
          {error.message}
        </p>
      ) : null}
    </aside>
  );
}
