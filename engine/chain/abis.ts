/**
 * Typed ABIs (for viem) of the functions and events the engine uses on its contracts. Written out rather
 * than read from the artifacts so calls and decoded results are type-checked.
 */
import { MULTI_SEND_ABI, PROXY_FACTORY_PROXY_ABI, SAFE_TX_FIELDS } from '../protocol/relayerSigning.js';

export { MULTI_SEND_ABI };

const address = (name: string) => ({ name, type: 'address' }) as const;
const uint = (name: string) => ({ name, type: 'uint256' }) as const;
const bytes = (name: string) => ({ name, type: 'bytes' }) as const;
const bytes32 = (name: string) => ({ name, type: 'bytes32' }) as const;
// Event parameters keep their literal names so decoded logs are typed by field.
const indexed = <const N extends string, const T extends string>(name: N, type: T) => ({ name, type, indexed: true }) as const;
const plain = <const N extends string, const T extends string>(name: N, type: T) => ({ name, type, indexed: false }) as const;

export const ERC20_ABI = [
  { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint8' }] },
  { type: 'function', name: 'totalSupply', stateMutability: 'view', inputs: [], outputs: [uint('')] },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [address('account')], outputs: [uint('')] },
  { type: 'function', name: 'allowance', stateMutability: 'view', inputs: [address('owner'), address('spender')], outputs: [uint('')] },
  { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [address('spender'), uint('amount')], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [address('to'), uint('amount')], outputs: [{ name: '', type: 'bool' }] },
  {
    type: 'function',
    name: 'transferFrom',
    stateMutability: 'nonpayable',
    inputs: [address('from'), address('to'), uint('amount')],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [indexed('from', 'address'), indexed('to', 'address'), plain('value', 'uint256')],
  },
  {
    type: 'event',
    name: 'Approval',
    inputs: [indexed('owner', 'address'), indexed('spender', 'address'), plain('value', 'uint256')],
  },
] as const;

/** The Sandbox USD collateral: ERC-20 plus the owner's mint. */
export const COLLATERAL_ABI = [
  ...ERC20_ABI,
  { type: 'function', name: 'owner', stateMutability: 'view', inputs: [], outputs: [address('')] },
  { type: 'function', name: 'mint', stateMutability: 'nonpayable', inputs: [address('to'), uint('amount')], outputs: [] },
] as const;

/** What ConditionPreparation and ConditionResolution both log first. */
const CONDITION_EVENT_HEAD = [indexed('conditionId', 'bytes32'), indexed('oracle', 'address'), indexed('questionId', 'bytes32'), plain('outcomeSlotCount', 'uint256')] as const;

export const CONDITIONAL_TOKENS_ABI = [
  {
    type: 'function',
    name: 'prepareCondition',
    stateMutability: 'nonpayable',
    inputs: [address('oracle'), bytes32('questionId'), uint('outcomeSlotCount')],
    outputs: [],
  },
  { type: 'function', name: 'reportPayouts', stateMutability: 'nonpayable', inputs: [bytes32('questionId'), { name: 'payouts', type: 'uint256[]' }], outputs: [] },
  {
    type: 'function',
    name: 'getConditionId',
    stateMutability: 'pure',
    inputs: [address('oracle'), bytes32('questionId'), uint('outcomeSlotCount')],
    outputs: [bytes32('')],
  },
  {
    type: 'function',
    name: 'getCollectionId',
    stateMutability: 'view',
    inputs: [bytes32('parentCollectionId'), bytes32('conditionId'), uint('indexSet')],
    outputs: [bytes32('')],
  },
  { type: 'function', name: 'getPositionId', stateMutability: 'pure', inputs: [address('collateralToken'), bytes32('collectionId')], outputs: [uint('')] },
  { type: 'function', name: 'getOutcomeSlotCount', stateMutability: 'view', inputs: [bytes32('conditionId')], outputs: [uint('')] },
  { type: 'function', name: 'payoutDenominator', stateMutability: 'view', inputs: [bytes32('')], outputs: [uint('')] },
  { type: 'function', name: 'payoutNumerators', stateMutability: 'view', inputs: [bytes32(''), uint('')], outputs: [uint('')] },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [address('owner'), uint('id')], outputs: [uint('')] },
  {
    type: 'function',
    name: 'balanceOfBatch',
    stateMutability: 'view',
    inputs: [{ name: 'owners', type: 'address[]' }, { name: 'ids', type: 'uint256[]' }],
    outputs: [{ name: '', type: 'uint256[]' }],
  },
  { type: 'function', name: 'setApprovalForAll', stateMutability: 'nonpayable', inputs: [address('operator'), { name: 'approved', type: 'bool' }], outputs: [] },
  { type: 'function', name: 'isApprovedForAll', stateMutability: 'view', inputs: [address('owner'), address('operator')], outputs: [{ name: '', type: 'bool' }] },
  {
    type: 'function',
    name: 'safeTransferFrom',
    stateMutability: 'nonpayable',
    inputs: [address('from'), address('to'), uint('id'), uint('value'), bytes('data')],
    outputs: [],
  },
  {
    type: 'function',
    name: 'splitPosition',
    stateMutability: 'nonpayable',
    inputs: [address('collateralToken'), bytes32('parentCollectionId'), bytes32('conditionId'), { name: 'partition', type: 'uint256[]' }, uint('amount')],
    outputs: [],
  },
  {
    type: 'function',
    name: 'mergePositions',
    stateMutability: 'nonpayable',
    inputs: [address('collateralToken'), bytes32('parentCollectionId'), bytes32('conditionId'), { name: 'partition', type: 'uint256[]' }, uint('amount')],
    outputs: [],
  },
  {
    type: 'function',
    name: 'redeemPositions',
    stateMutability: 'nonpayable',
    inputs: [address('collateralToken'), bytes32('parentCollectionId'), bytes32('conditionId'), { name: 'indexSets', type: 'uint256[]' }],
    outputs: [],
  },
  {
    type: 'event',
    name: 'ConditionPreparation',
    inputs: CONDITION_EVENT_HEAD,
  },
  {
    type: 'event',
    name: 'ConditionResolution',
    inputs: [...CONDITION_EVENT_HEAD, plain('payoutNumerators', 'uint256[]')],
  },
] as const;

const SIG_TUPLE = {
  name: 'createSig',
  type: 'tuple',
  components: [
    { name: 'v', type: 'uint8' },
    { name: 'r', type: 'bytes32' },
    { name: 's', type: 'bytes32' },
  ],
} as const;

export const SAFE_PROXY_FACTORY_ABI = [
  {
    type: 'function',
    name: 'createProxy',
    stateMutability: 'nonpayable',
    inputs: [address('paymentToken'), uint('payment'), address('paymentReceiver'), SIG_TUPLE],
    outputs: [],
  },
  { type: 'function', name: 'computeProxyAddress', stateMutability: 'view', inputs: [address('user')], outputs: [address('')] },
  { type: 'function', name: 'proxyCreationCode', stateMutability: 'view', inputs: [], outputs: [bytes('')] },
  { type: 'function', name: 'getContractBytecode', stateMutability: 'view', inputs: [], outputs: [bytes('')] },
  { type: 'function', name: 'getSalt', stateMutability: 'pure', inputs: [address('user')], outputs: [bytes32('')] },
  { type: 'function', name: 'domainSeparator', stateMutability: 'view', inputs: [], outputs: [bytes32('')] },
  { type: 'function', name: 'masterCopy', stateMutability: 'view', inputs: [], outputs: [address('')] },
  { type: 'function', name: 'fallbackHandler', stateMutability: 'view', inputs: [], outputs: [address('')] },
  {
    type: 'event',
    name: 'ProxyCreation',
    inputs: [plain('proxy', 'address'), plain('owner', 'address')],
  },
] as const;

const SAFE_EXECUTION_EVENT_INPUTS = [plain('txHash', 'bytes32'), plain('payment', 'uint256')] as const;

/** Safe 1.3.0 (GnosisSafeL2): what the relayer reads and executes. */
export const SAFE_ABI = [
  { type: 'function', name: 'nonce', stateMutability: 'view', inputs: [], outputs: [uint('')] },
  { type: 'function', name: 'getOwners', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address[]' }] },
  { type: 'function', name: 'getThreshold', stateMutability: 'view', inputs: [], outputs: [uint('')] },
  { type: 'function', name: 'isOwner', stateMutability: 'view', inputs: [address('owner')], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'VERSION', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'domainSeparator', stateMutability: 'view', inputs: [], outputs: [bytes32('')] },
  {
    type: 'function',
    name: 'getTransactionHash',
    stateMutability: 'view',
    inputs: [...SAFE_TX_FIELDS, uint('_nonce')],
    outputs: [bytes32('')],
  },
  {
    type: 'function',
    name: 'execTransaction',
    stateMutability: 'payable',
    inputs: [...SAFE_TX_FIELDS, bytes('signatures')],
    outputs: [{ name: 'success', type: 'bool' }],
  },
  {
    type: 'event',
    name: 'ExecutionSuccess',
    inputs: SAFE_EXECUTION_EVENT_INPUTS,
  },
  {
    type: 'event',
    name: 'ExecutionFailure',
    inputs: SAFE_EXECUTION_EVENT_INPUTS,
  },
] as const;

export const PROXY_WALLET_FACTORY_ABI = [
  ...PROXY_FACTORY_PROXY_ABI,
  { type: 'function', name: 'computeWalletAddress', stateMutability: 'view', inputs: [address('user')], outputs: [address('')] },
  { type: 'function', name: 'implementation', stateMutability: 'view', inputs: [], outputs: [address('')] },
  { type: 'function', name: 'getHubAddr', stateMutability: 'view', inputs: [], outputs: [address('')] },
  { type: 'function', name: 'relayHubVersion', stateMutability: 'pure', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'owner', stateMutability: 'view', inputs: [], outputs: [address('')] },
] as const;

export const PROXY_WALLET_ABI = [
  { type: 'function', name: 'owner', stateMutability: 'view', inputs: [], outputs: [address('')] },
  ...PROXY_FACTORY_PROXY_ABI,
] as const;

/** RelayHub v1 relay-call status (TransactionRelayed.status). */
export const RELAY_CALL_STATUS = ['OK', 'RelayedCallFailed', 'PreRelayedFailed', 'PostRelayedFailed', 'RecipientBalanceChanged'] as const;
/** RelayHub v1 precondition failures (CanRelayFailed.reason; codes > 10 come from the recipient). */
export const CAN_RELAY_REASON = ['OK', 'WrongSignature', 'WrongNonce', 'AcceptRelayedCallReverted', 'InvalidRecipientStatusCode'] as const;
/** RelayHub v1 relay states (getRelay().state). */
export const RELAY_STATE = { Unknown: 0, Staked: 1, Registered: 2, Removed: 3 } as const;

/** What a relayed call carries after its addresses, in canRelay and relayCall alike. */
const RELAYED_CALL_PARAMS = [
  bytes('encodedFunction'),
  uint('transactionFee'),
  uint('gasPrice'),
  uint('gasLimit'),
  uint('nonce'),
  bytes('signature'),
  bytes('approvalData'),
] as const;
/** The indexed head shared by TransactionRelayed and CanRelayFailed. */
const RELAYED_EVENT_HEAD = [indexed('relay', 'address'), indexed('from', 'address'), indexed('to', 'address'), plain('selector', 'bytes4')] as const;

export const RELAY_HUB_ABI = [
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'getNonce', stateMutability: 'view', inputs: [address('from')], outputs: [uint('')] },
  { type: 'function', name: 'stake', stateMutability: 'payable', inputs: [address('relay'), uint('unstakeDelay')], outputs: [] },
  { type: 'function', name: 'registerRelay', stateMutability: 'nonpayable', inputs: [uint('transactionFee'), { name: 'url', type: 'string' }], outputs: [] },
  {
    type: 'function',
    name: 'getRelay',
    stateMutability: 'view',
    inputs: [address('relay')],
    outputs: [uint('totalStake'), uint('unstakeDelay'), uint('unstakeTime'), address('owner'), { name: 'state', type: 'uint8' }],
  },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [address('target')], outputs: [uint('')] },
  { type: 'function', name: 'depositFor', stateMutability: 'payable', inputs: [address('target')], outputs: [] },
  { type: 'function', name: 'requiredGas', stateMutability: 'view', inputs: [uint('relayedCallStipend')], outputs: [uint('')] },
  {
    type: 'function',
    name: 'maxPossibleCharge',
    stateMutability: 'view',
    inputs: [uint('relayedCallStipend'), uint('gasPrice'), uint('transactionFee')],
    outputs: [uint('')],
  },
  {
    type: 'function',
    name: 'canRelay',
    stateMutability: 'view',
    inputs: [address('relay'), address('from'), address('to'), ...RELAYED_CALL_PARAMS],
    outputs: [uint('status'), bytes('recipientContext')],
  },
  {
    type: 'function',
    name: 'relayCall',
    stateMutability: 'nonpayable',
    inputs: [address('from'), address('recipient'), ...RELAYED_CALL_PARAMS],
    outputs: [],
  },
  {
    type: 'event',
    name: 'CanRelayFailed',
    inputs: [...RELAYED_EVENT_HEAD, plain('reason', 'uint256')],
  },
  {
    type: 'event',
    name: 'TransactionRelayed',
    inputs: [...RELAYED_EVENT_HEAD, plain('status', 'uint8'), plain('charge', 'uint256')],
  },
  {
    type: 'event',
    name: 'RelayAdded',
    inputs: [
      indexed('relay', 'address'),
      indexed('owner', 'address'),
      plain('transactionFee', 'uint256'),
      plain('stake', 'uint256'),
      plain('unstakeDelay', 'uint256'),
      plain('url', 'string'),
    ],
  },
] as const;

/** Every ABI, as the ChainHandle carries them. */
export const CHAIN_ABIS = {
  erc20: ERC20_ABI,
  collateral: COLLATERAL_ABI,
  conditionalTokens: CONDITIONAL_TOKENS_ABI,
  safeFactory: SAFE_PROXY_FACTORY_ABI,
  safe: SAFE_ABI,
  multiSend: MULTI_SEND_ABI,
  proxyFactory: PROXY_WALLET_FACTORY_ABI,
  proxyWallet: PROXY_WALLET_ABI,
  relayHub: RELAY_HUB_ABI,
} as const;

export type ChainAbis = typeof CHAIN_ABIS;
