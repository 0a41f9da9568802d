/**
 * Market lifecycle on the Conditional Tokens contract, sent from the operator account (the oracle of every
 * market this exchange creates), plus minting of the Sandbox USD collateral. Each call waits for its
 * receipt and is idempotent where the contract is not (a condition prepared or resolved twice).
 */
import { encodePacked, keccak256, type Address, type Hex } from 'viem';
import { COLLATERAL_ABI, CONDITIONAL_TOKENS_ABI } from './abis.js';
import type { ChainHandle } from './chainHandle.js';

export interface ChainWrite {
  /** null when nothing had to be sent (already done). */
  txHash: Hex | null;
}

export interface PreparedCondition extends ChainWrite {
  conditionId: Hex;
}

/** keccak256(oracle ‖ questionId ‖ outcomeSlotCount), as CTF.getConditionId. */
function conditionIdFor(oracle: Address, questionId: Hex, outcomeSlotCount: number): Hex {
  return keccak256(encodePacked(['address', 'bytes32', 'uint256'], [oracle, questionId, BigInt(outcomeSlotCount)]));
}

async function waitOk(chain: ChainHandle, hash: Hex, what: string): Promise<Hex> {
  const { publicClient } = await chain.ready();
  const r = await publicClient.waitForTransactionReceipt({ hash });
  if (r.status !== 'success') throw new Error(`${what} reverted (tx ${hash})`);
  return hash;
}

/** prepareCondition(operator, questionId, outcomeSlotCount) unless the condition exists already. */
export async function prepareCondition(chain: ChainHandle, questionId: Hex, outcomeSlotCount = 2): Promise<PreparedCondition> {
  if (!Number.isInteger(outcomeSlotCount) || outcomeSlotCount < 2 || outcomeSlotCount > 256) {
    throw new Error(`outcomeSlotCount must be an integer 2..256, not ${outcomeSlotCount}`);
  }
  const { publicClient, operatorWallet } = await chain.ready();
  const ctf = chain.deployment.conditionalTokens;
  const conditionId = conditionIdFor(chain.operatorAddress, questionId, outcomeSlotCount);
  const slots = await publicClient.readContract({ address: ctf, abi: CONDITIONAL_TOKENS_ABI, functionName: 'getOutcomeSlotCount', args: [conditionId] });
  if (slots > 0n) return { conditionId, txHash: null };
  const hash = await operatorWallet.writeContract({
    address: ctf,
    abi: CONDITIONAL_TOKENS_ABI,
    functionName: 'prepareCondition',
    args: [chain.operatorAddress, questionId, BigInt(outcomeSlotCount)],
  });
  return { conditionId, txHash: await waitOk(chain, hash, `prepareCondition(${questionId})`) };
}

/**
 * reportPayouts(questionId, payouts) as the oracle, e.g. [1n, 0n] when outcome 0 wins. The condition must
 * be prepared; a condition already resolved is left as it is (txHash null).
 */
export async function reportPayouts(chain: ChainHandle, questionId: Hex, payouts: readonly bigint[]): Promise<ChainWrite> {
  if (payouts.length < 2) throw new Error('payouts needs one entry per outcome (at least 2)');
  if (payouts.some((p) => p < 0n) || payouts.every((p) => p === 0n)) throw new Error('payouts must be non-negative and not all zero');
  const { publicClient, operatorWallet } = await chain.ready();
  const ctf = chain.deployment.conditionalTokens;
  const conditionId = conditionIdFor(chain.operatorAddress, questionId, payouts.length);
  const [slots, denominator] = await Promise.all([
    publicClient.readContract({ address: ctf, abi: CONDITIONAL_TOKENS_ABI, functionName: 'getOutcomeSlotCount', args: [conditionId] }),
    publicClient.readContract({ address: ctf, abi: CONDITIONAL_TOKENS_ABI, functionName: 'payoutDenominator', args: [conditionId] }),
  ]);
  if (slots === 0n) throw new Error(`condition ${conditionId} is not prepared; call prepareCondition first`);
  if (denominator > 0n) return { txHash: null };
  const hash = await operatorWallet.writeContract({
    address: ctf,
    abi: CONDITIONAL_TOKENS_ABI,
    functionName: 'reportPayouts',
    args: [questionId, [...payouts]],
  });
  return { txHash: await waitOk(chain, hash, `reportPayouts(${questionId})`) };
}

/** Mints `amount` micro-units (6 decimals) of Sandbox USD to `to`. */
export async function mintCollateral(chain: ChainHandle, to: Address, amount: bigint): Promise<ChainWrite> {
  if (amount <= 0n) throw new Error('amount must be positive (6-decimal micro-units)');
  const { operatorWallet } = await chain.ready();
  const hash = await operatorWallet.writeContract({
    address: chain.deployment.collateral,
    abi: COLLATERAL_ABI,
    functionName: 'mint',
    args: [to, amount],
  });
  return { txHash: await waitOk(chain, hash, `mint(${to}, ${amount})`) };
}
