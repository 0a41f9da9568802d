/**
 * POST /submit bodies as the public builder-relayer client sends them (relayer-api.md §3.3), checked
 * field by field: `safeTxnGas` is accepted for `safeTxGas`; SAFE-CREATE has no nonce or metadata; PROXY
 * carries relayerFee / relay / relayHub and no approvalData (default 0x).
 */
import type { Address, Hex } from 'viem';
import type { SafeTx } from '../../protocol/relayerSigning.js';
import { SUBMIT_TYPES } from '../../protocol/schemas/relayer.js';
import {
  fieldError,
  parseAddress,
  parseEnum,
  parseHexData,
  parseMetadata,
  parseObject,
  parseOptionalHexData,
  parseOptionalUint,
  parseSignature,
  parseUint,
  requireBody,
} from './relayerValidation.js';

interface Common {
  from: Address;
  to: Address;
  /** As sent (lower case), or null when absent. */
  proxyWallet: Address | null;
  data: Hex;
  signature: Hex;
  metadata: string;
}

/** A SAFE submit is the Safe transaction its owner signed, plus who sent it. */
export interface SafeSubmit extends Common, SafeTx {
  type: 'SAFE';
  /** The value field as sent ("" when absent), for the record. */
  valueText: string;
}

export interface SafeCreateSubmit extends Common {
  type: 'SAFE-CREATE';
  paymentToken: Address;
  payment: bigint;
  paymentReceiver: Address;
}

export interface ProxySubmit extends Common {
  type: 'PROXY';
  nonce: bigint;
  gasPrice: bigint;
  gasLimit: bigint;
  relayerFee: bigint;
  relayHub: Address;
  relay: Address;
  approvalData: Hex;
}

export type SubmitRequest = SafeSubmit | SafeCreateSubmit | ProxySubmit;

export function parseSubmit(raw: unknown): SubmitRequest {
  const body = requireBody(raw);
  const type = parseEnum(body.type, 'type', SUBMIT_TYPES);
  const common: Common = {
    from: parseAddress(body.from, 'from'),
    to: parseAddress(body.to, 'to'),
    proxyWallet: body.proxyWallet === undefined || body.proxyWallet === null || body.proxyWallet === '' ? null : parseAddress(body.proxyWallet, 'proxyWallet'),
    data: parseHexData(body.data ?? (type === 'SAFE-CREATE' ? '0x' : undefined), 'data'),
    signature: parseSignature(body.signature, 'signature'),
    metadata: parseMetadata(body.metadata),
  };
  const params = parseObject(body.signatureParams, 'signatureParams');
  const p = (name: string) => `signatureParams.${name}`;

  if (type === 'SAFE') {
    if (common.proxyWallet === null) throw fieldError('proxyWallet', 'is required for SAFE: it is the Safe that executes the transaction');
    const operation = parseUint(params.operation, p('operation'));
    if (operation > 1n) throw fieldError(p('operation'), `must be "0" (CALL) or "1" (DELEGATECALL), got '${String(params.operation)}'`);
    const gasField = params.safeTxGas !== undefined ? 'safeTxGas' : 'safeTxnGas';
    return {
      ...common,
      type,
      nonce: parseUint(body.nonce, 'nonce'),
      value: parseOptionalUint(body.value, 'value', 0n),
      valueText: body.value === undefined || body.value === null ? '' : String(body.value),
      operation: Number(operation),
      safeTxGas: parseUint(params[gasField], p(gasField === 'safeTxGas' ? 'safeTxGas' : 'safeTxGas (or safeTxnGas)')),
      baseGas: parseUint(params.baseGas, p('baseGas')),
      gasPrice: parseUint(params.gasPrice, p('gasPrice')),
      gasToken: parseAddress(params.gasToken, p('gasToken')),
      refundReceiver: parseAddress(params.refundReceiver, p('refundReceiver')),
    };
  }
  if (type === 'SAFE-CREATE') {
    return {
      ...common,
      type,
      // Required (interface §4.4); the public client always sends them (zero payment).
      paymentToken: parseAddress(params.paymentToken, p('paymentToken')),
      payment: parseUint(params.payment, p('payment')),
      paymentReceiver: parseAddress(params.paymentReceiver, p('paymentReceiver')),
    };
  }
  return {
    ...common,
    type,
    nonce: parseUint(body.nonce, 'nonce'),
    gasPrice: parseUint(params.gasPrice, p('gasPrice')),
    gasLimit: parseUint(params.gasLimit, p('gasLimit')),
    relayerFee: parseOptionalUint(params.relayerFee, p('relayerFee'), 0n),
    relayHub: parseAddress(params.relayHub, p('relayHub')),
    relay: parseAddress(params.relay, p('relay')),
    approvalData: parseOptionalHexData(body.approvalData ?? params.approvalData, 'approvalData'),
  };
}
