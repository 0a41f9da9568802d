import type { Hex } from 'viem';
import type { ChainHandle } from '../../chain/chainHandle.js';
import { prepareCondition, reportPayouts } from '../../chain/conditions.js';
import type { MarketRow } from '../../store/marketRepo.js';

/**
 * The market registry's chain steps on the Conditional Tokens contract (chain/conditions.ts), sent by
 * the operator, the oracle of every market. Both are idempotent, so a retry after a lost confirmation or
 * on a reused chain is safe; a prepared condition whose id differs from the registry's is an error.
 */
export async function prepareMarketOnChain(chain: ChainHandle, m: Pick<MarketRow, 'conditionId' | 'questionId'>): Promise<void> {
  const { conditionId } = await prepareCondition(chain, m.questionId as Hex, 2);
  if (conditionId.toLowerCase() !== m.conditionId.toLowerCase()) {
    throw new Error(`the chain derived condition ${conditionId} for question ${m.questionId}, not ${m.conditionId}: oracle address mismatch`);
  }
}

/** Reports payouts [1, 0] or [0, 1]: the winning outcome's shares redeem for one collateral unit each. */
export async function reportMarketOnChain(chain: ChainHandle, m: Pick<MarketRow, 'conditionId' | 'questionId'>, winner: 0 | 1): Promise<void> {
  await reportPayouts(chain, m.questionId as Hex, winner === 0 ? [1n, 0n] : [0n, 1n]);
}
