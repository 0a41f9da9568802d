import type { OrderRow } from '../store/orderRepo.js';

/** 2^53 − 1: must come back exact, never as a float. */
export const SAMPLE_BIG = 9_007_199_254_740_991n;

/** A stored order with big amounts (test data for the store's tests). */
export function sampleOrderRow(id: string, over: Partial<OrderRow> = {}): OrderRow {
  return {
    id,
    digest: '0x' + id.toLowerCase().padStart(64, '0'),
    maker: '0x' + '11'.repeat(20),
    signer: '0x' + '11'.repeat(20),
    owner: '0x' + '11'.repeat(20),
    conditionId: '0x' + 'ab'.repeat(32),
    tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
    outcomeIndex: 0,
    side: 'BUY',
    price: 520_000n,
    originalSize: SAMPLE_BIG,
    sizeMatched: 0n,
    makerAmount: 2n ** 200n,
    takerAmount: 10_000_000n,
    salt: '123456789012345678901234567890',
    nonce: '0',
    feeRateBps: '0',
    signatureType: 0,
    signature: '0x' + '00'.repeat(65),
    orderType: 'GTC',
    expiration: 0,
    status: 'open',
    reserved: SAMPLE_BIG - 1n,
    cancelReason: null,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...over,
  };
}
