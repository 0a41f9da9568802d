/**
 * Wire shapes of the relayer (interface §4.4, decisions §4, relayer-api.md §3). The TypeBox schemas
 * check JSON types and document the routes (OpenAPI); formats (addresses, hex, decimals) are checked by
 * the relayer's validators so each 400 can say exactly which field is wrong and how to fix it.
 * Bodies stay open (unknown fields are ignored) because the public client sends fields the contract
 * does not use.
 */
import { Type, type Static } from '@sinclair/typebox';

export const RELAYER_TX_STATES = ['STATE_NEW', 'STATE_EXECUTED', 'STATE_MINED', 'STATE_INVALID', 'STATE_CONFIRMED', 'STATE_FAILED'] as const;
export type RelayerTxState = (typeof RELAYER_TX_STATES)[number];
/** States after which nothing changes any more. */
export const TERMINAL_STATES: readonly RelayerTxState[] = ['STATE_CONFIRMED', 'STATE_FAILED', 'STATE_INVALID'];

/** `/submit` types, plus APPROVE for the operator approvals of POST /operations/approve. */
export const RELAYER_TX_TYPES = ['SAFE', 'SAFE-CREATE', 'PROXY', 'APPROVE'] as const;
export type RelayerTxType = (typeof RELAYER_TX_TYPES)[number];
export const SUBMIT_TYPES = ['SAFE', 'SAFE-CREATE', 'PROXY'] as const;
export type SubmitType = (typeof SUBMIT_TYPES)[number];
export const WALLET_TYPES = ['SAFE', 'PROXY'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

const Str = (description: string) => Type.String({ description });
const NullableStr = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], description });

export const SubmitSignatureParams = Type.Object(
  {
    operation: Type.Optional(Str('SAFE: 0 = CALL, 1 = DELEGATECALL')),
    safeTxGas: Type.Optional(Str('SAFE: Safe gas limit (alias safeTxnGas)')),
    safeTxnGas: Type.Optional(Str('SAFE: alias of safeTxGas sent by the public client')),
    baseGas: Type.Optional(Str('SAFE: extra gas charged for refunds')),
    gasPrice: Type.Optional(Str('SAFE: refund gas price; PROXY: relayed-call gas price')),
    gasToken: Type.Optional(Str('SAFE: refund token (0x0 for native)')),
    refundReceiver: Type.Optional(Str('SAFE: refund recipient')),
    paymentToken: Type.Optional(Str('SAFE-CREATE: payment token')),
    payment: Type.Optional(Str('SAFE-CREATE: payment amount (decimal)')),
    paymentReceiver: Type.Optional(Str('SAFE-CREATE: payment receiver')),
    gasLimit: Type.Optional(Str('PROXY: relayed-call gas limit')),
    relayerFee: Type.Optional(Str('PROXY: GSN transaction fee')),
    relayHub: Type.Optional(Str('PROXY: relay hub address')),
    relay: Type.Optional(Str('PROXY: relay address from GET /relay-payload')),
  },
  { additionalProperties: true },
);

export const SubmitBody = Type.Object(
  {
    type: Str('SAFE | SAFE-CREATE | PROXY'),
    from: Str('Signer (Safe / proxy owner); must equal SERVICE_ADDRESS'),
    to: Str('SAFE: target of the SafeTx; SAFE-CREATE: Safe factory; PROXY: proxy factory'),
    proxyWallet: Type.Optional(Str('SAFE: the Safe executing; SAFE-CREATE / PROXY: the predicted wallet (checked)')),
    data: Str('0x-prefixed calldata'),
    nonce: Type.Optional(Str('Decimal Safe nonce (SAFE) or relay-hub nonce (PROXY) from GET /nonce')),
    value: Type.Optional(Str('SAFE: wei forwarded by the SafeTx; default "0"')),
    signature: Str('SAFE: SafeTx signature (v 27/28/31/32); SAFE-CREATE: CreateProxy EIP-712; PROXY: rlx: EIP-191'),
    signatureParams: SubmitSignatureParams,
    metadata: Type.Optional(NullableStr('Label stored with the transaction')),
    approvalData: Type.Optional(Str('PROXY: GSN approval data; default 0x')),
  },
  { additionalProperties: true },
);
export type SubmitBody = Static<typeof SubmitBody>;

export const SubmitResponse = Type.Object({
  transactionID: Type.String(),
  state: Type.String(),
  transactionHash: Type.Optional(Type.String()),
});

export const TransactionRecord = Type.Object({
  transactionID: Type.String(),
  transactionHash: Type.String({ description: '"" until broadcast' }),
  from: Type.String(),
  to: Type.String(),
  proxyAddress: Type.String(),
  data: Type.String(),
  nonce: Type.String(),
  value: Type.String(),
  signature: Type.String(),
  state: Type.String({ enum: [...RELAYER_TX_STATES] }),
  type: Type.String({ enum: [...RELAYER_TX_TYPES] }),
  owner: Type.String(),
  metadata: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  errorMsg: Type.String({ description: 'RPC or revert error of a STATE_FAILED / STATE_INVALID transaction, else ""' }),
});
export type TransactionRecord = Static<typeof TransactionRecord>;

export const WalletQuery = Type.Object(
  {
    address: Str('Signer EOA (GET /nonce, /relay-payload) or wallet / owner address (GET /deployed)'),
    type: Type.Optional(Str('SAFE | PROXY')),
  },
  { additionalProperties: true },
);
export type WalletQuery = Static<typeof WalletQuery>;

export const TransactionQuery = Type.Object({ id: Str('transactionID from POST /submit') }, { additionalProperties: true });

export const NonceResponse = Type.Object({ nonce: Type.String() });

export const RelayPayloadResponse = Type.Object({
  address: Type.String({ description: 'The GSN relay EOA that calls RelayHub.relayCall. NOT a deposit address: never send funds to it.' }),
  nonce: Type.String(),
  relayHub: Type.String(),
  proxyFactory: Type.String(),
  gasPrice: Type.String(),
  gasLimit: Type.String(),
  relayerFee: Type.String(),
});
export type RelayPayloadResponse = Static<typeof RelayPayloadResponse>;

export const DeployedResponse = Type.Object({ deployed: Type.Boolean(), address: Type.String() });
export type DeployedResponse = Static<typeof DeployedResponse>;

export const ApproveBody = Type.Object(
  {
    token: Str('ERC-20 contract'),
    spender: Str('Spender address'),
    amount: Str('Decimal base units; 115792089237316195423570985008687907853269984665640564039457584007913129639935 (2^256-1) for maximum'),
  },
  { additionalProperties: true },
);
export type ApproveBody = Static<typeof ApproveBody>;

export const TxResultResponse = Type.Object({ txHash: Type.String(), confirmations: Type.Integer() });

export const ProxyCallBody = Type.Object(
  {
    type: Str('CALL | DELEGATE_CALL'),
    to: Str('Target contract'),
    value: Type.Optional(Str('Decimal wei; default "0"')),
    data: Type.Optional(Str('Lowercase 0x-prefixed calldata; default 0x')),
  },
  { additionalProperties: true },
);

export const WalletProxyBody = Type.Object(
  {
    owner: Str('Must equal SERVICE_ADDRESS'),
    calls: Type.Optional(Type.Array(ProxyCallBody, { description: 'Ordered calls; default []' })),
    nonce: Str('Decimal relay-hub nonce of owner (GET /nonce?type=PROXY)'),
    signature: Str('EIP-191 signature of the rlx: hash built with the GET /relay-payload values'),
    approvalData: Type.Optional(Str('Hex forwarded to acceptRelayedCall; default 0x')),
  },
  { additionalProperties: true },
);
export type WalletProxyBody = Static<typeof WalletProxyBody>;

export const WalletProxyResponse = Type.Object({ txHash: Type.String(), confirmations: Type.Integer(), proxyWallet: Type.String() });

export const WalletSafeBody = Type.Object(
  {
    owner: Str('Must equal SERVICE_ADDRESS'),
    paymentToken: Type.Optional(Str('Default zero address')),
    payment: Type.Optional(Str('Decimal wei; default "0"')),
    paymentReceiver: Type.Optional(Str('Default zero address')),
    signature: Str('EIP-712 CreateProxy signature by owner (domain "Service Contract Proxy Factory"; "Polymarket Contract Proxy Factory" in the polymarket profile)'),
  },
  { additionalProperties: true },
);
export type WalletSafeBody = Static<typeof WalletSafeBody>;

export const WalletSafeResponse = Type.Object({ txHash: Type.String(), confirmations: Type.Integer(), safe: Type.String() });
