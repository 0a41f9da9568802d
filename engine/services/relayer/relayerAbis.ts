/**
 * The slices of contract ABIs the relayer calls. Kept here (not taken from the chain package) so the
 * relayer depends only on the public, stable interfaces of Safe 1.3.0, the Safe factory, RelayHub v1 and
 * ERC-20; selectors and topics are the ones in relayer-api.md §5, §8.
 */
export const safeAbi = [
  { type: 'function', name: 'nonce', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint256' }] },
  { type: 'function', name: 'getOwners', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address[]' }] },
  {
    type: 'function',
    name: 'execTransaction',
    stateMutability: 'payable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
      { name: 'operation', type: 'uint8' },
      { name: 'safeTxGas', type: 'uint256' },
      { name: 'baseGas', type: 'uint256' },
      { name: 'gasPrice', type: 'uint256' },
      { name: 'gasToken', type: 'address' },
      { name: 'refundReceiver', type: 'address' },
      { name: 'signatures', type: 'bytes' },
    ],
    outputs: [{ name: 'success', type: 'bool' }],
  },
  {
    type: 'event',
    name: 'ExecutionFailure',
    inputs: [
      { name: 'txHash', type: 'bytes32', indexed: false },
      { name: 'payment', type: 'uint256', indexed: false },
    ],
  },
] as const;

export const safeFactoryAbi = [
  {
    type: 'function',
    name: 'createProxy',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'paymentToken', type: 'address' },
      { name: 'payment', type: 'uint256' },
      { name: 'paymentReceiver', type: 'address' },
      {
        name: 'createSig',
        type: 'tuple',
        components: [
          { name: 'v', type: 'uint8' },
          { name: 'r', type: 'bytes32' },
          { name: 's', type: 'bytes32' },
        ],
      },
    ],
    outputs: [],
  },
  {
    type: 'event',
    name: 'ProxyCreation',
    inputs: [
      { name: 'proxy', type: 'address', indexed: false },
      { name: 'owner', type: 'address', indexed: false },
    ],
  },
] as const;

export const relayHubAbi = [
  { type: 'function', name: 'getNonce', stateMutability: 'view', inputs: [{ name: 'from', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
  {
    type: 'function',
    name: 'canRelay',
    stateMutability: 'view',
    inputs: [
      { name: 'relay', type: 'address' },
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'encodedFunction', type: 'bytes' },
      { name: 'transactionFee', type: 'uint256' },
      { name: 'gasPrice', type: 'uint256' },
      { name: 'gasLimit', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'signature', type: 'bytes' },
      { name: 'approvalData', type: 'bytes' },
    ],
    outputs: [
      { name: 'status', type: 'uint256' },
      { name: 'recipientContext', type: 'bytes' },
    ],
  },
  {
    type: 'function',
    name: 'relayCall',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'recipient', type: 'address' },
      { name: 'encodedFunction', type: 'bytes' },
      { name: 'transactionFee', type: 'uint256' },
      { name: 'gasPrice', type: 'uint256' },
      { name: 'gasLimit', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'signature', type: 'bytes' },
      { name: 'approvalData', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'event',
    name: 'TransactionRelayed',
    inputs: [
      { name: 'relay', type: 'address', indexed: true },
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'selector', type: 'bytes4', indexed: false },
      { name: 'status', type: 'uint8', indexed: false },
      { name: 'charge', type: 'uint256', indexed: false },
    ],
  },
  {
    type: 'event',
    name: 'CanRelayFailed',
    inputs: [
      { name: 'relay', type: 'address', indexed: true },
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'selector', type: 'bytes4', indexed: false },
      { name: 'reason', type: 'uint256', indexed: false },
    ],
  },
] as const;

/** RelayHub v1 `canRelay` / `CanRelayFailed` reasons. */
export const CAN_RELAY_REASONS: Record<number, string> = {
  0: 'OK',
  1: 'WrongSignature',
  2: 'WrongNonce',
  3: 'AcceptRelayedCallReverted',
  4: 'InvalidRecipientStatusCode',
};

/** RelayHub v1 `TransactionRelayed.status`. */
export const RELAY_CALL_STATUS: Record<number, string> = {
  0: 'OK',
  1: 'RelayedCallFailed',
  2: 'PreRelayedFailed',
  3: 'PostRelayedFailed',
  4: 'RecipientBalanceChanged',
};
