import type { Address, OrderStruct } from '../protocol/eip712.js';

/**
 * The full-request known-answer vector of trading-api.md §6.3 (BUY 10 @ 0.52, chain 137, the public
 * exchange), shared by the crypto tests.
 */
export const VECTOR_6_3_ORDER: OrderStruct = {
  salt: 12345,
  maker: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
  signer: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
  taker: '0x0000000000000000000000000000000000000000',
  tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
  makerAmount: '5200000',
  takerAmount: '10000000',
  expiration: '0',
  nonce: '0',
  feeRateBps: '0',
  side: 'BUY',
  signatureType: 0,
};

export const VECTOR_6_3_SIGNATURE =
  '0x14891d8f33e0cd79da2e0d623d6f0a7b2ea9babf045d42defa47ea2191dd483e2837e90f585cf0698fad39680063124f593553d6041de4f9879567d68f658e201c';

export const VECTOR_6_3_DOMAIN = { chainId: 137, verifyingContract: '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E' as Address };

export const VECTOR_6_3_DIGEST = '0x24aed465e78a205d68396b89765b6e3f9a80305e47e65d2bcab6c2aba627fe7c';
