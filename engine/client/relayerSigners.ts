/**
 * Building and signing relayer payloads the way the public builder-relayer client does (relayer-api.md
 * §3.3, §5.3, §5.5, §8.3), for Node and the browser: SAFE (SafeTx hash signed with eth_sign, v+4),
 * SAFE-CREATE and /wallet/safe (CreateProxy typed data), PROXY and /wallet/proxy (rlx: hash, EIP-191).
 * Any viem LocalAccount is a RelayerSigner; a browser wallet can be wrapped into one.
 */
import type { Address, Hex } from 'viem';
import {
  createProxyTypedData,
  encodeMultiSend,
  encodeProxyCalls,
  PROXY_CALL_TYPE,
  rlxHash,
  safeTxHash,
  toSafeEthSignSignature,
  ZERO_ADDRESS,
  type SafeTx,
} from '../protocol/relayerSigning.js';
import type { RelayPayloadResponse } from '../protocol/schemas/relayer.js';

export interface RelayerSigner {
  readonly address: Address;
  signMessage(args: { message: { raw: Hex } }): Promise<Hex>;
  // The typed-data shapes differ per payload; viem checks them at the call site.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  signTypedData(args: any): Promise<Hex>;
}

/** One call of a SAFE transaction (several become a MultiSend batch, as in the public client). */
export interface SafeCall {
  to: Address;
  data: Hex;
  value?: bigint;
}

/** The SAFE /submit body for calls executed by the signer's Safe. */
export async function buildSafeSubmit(
  signer: RelayerSigner,
  args: { chainId: number; safe: Address; multiSend: Address; nonce: bigint | string; calls: readonly SafeCall[]; metadata?: string },
): Promise<Record<string, unknown>> {
  if (args.calls.length === 0) throw new Error('a SAFE transaction needs at least one call');
  const single = args.calls.length === 1 ? args.calls[0]! : undefined;
  const inner = single
    ? { to: single.to, data: single.data, value: single.value ?? 0n, operation: 0 }
    : {
        to: args.multiSend,
        data: encodeMultiSend(args.calls.map((c) => ({ operation: 0, to: c.to, value: c.value ?? 0n, data: c.data }))),
        value: 0n,
        operation: 1,
      };
  const tx: SafeTx = {
    ...inner,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: ZERO_ADDRESS,
    refundReceiver: ZERO_ADDRESS,
    nonce: BigInt(args.nonce),
  };
  const signature = await signSafeTx(signer, args.chainId, args.safe, tx);
  return {
    from: signer.address,
    to: tx.to,
    proxyWallet: args.safe,
    data: tx.data,
    nonce: tx.nonce.toString(),
    ...(tx.value !== 0n ? { value: tx.value.toString() } : {}),
    signature,
    signatureParams: {
      gasPrice: '0',
      operation: String(tx.operation),
      safeTxnGas: '0',
      baseGas: '0',
      gasToken: ZERO_ADDRESS,
      refundReceiver: ZERO_ADDRESS,
    },
    type: 'SAFE',
    metadata: args.metadata ?? '',
  };
}

/** SafeTx signature as the public client makes it: personal_sign of the hash, v moved to 31/32. */
export async function signSafeTx(signer: RelayerSigner, chainId: number, safe: Address, tx: SafeTx): Promise<Hex> {
  const raw = await signer.signMessage({ message: { raw: safeTxHash(chainId, safe, tx) } });
  return toSafeEthSignSignature(raw);
}

export interface CreateProxyTerms {
  paymentToken?: Address;
  payment?: bigint;
  paymentReceiver?: Address;
}

export async function signCreateProxy(signer: RelayerSigner, chainId: number, safeFactory: Address, terms: CreateProxyTerms = {}): Promise<Hex> {
  return signer.signTypedData(
    createProxyTypedData(chainId, safeFactory, {
      paymentToken: terms.paymentToken ?? ZERO_ADDRESS,
      payment: terms.payment ?? 0n,
      paymentReceiver: terms.paymentReceiver ?? ZERO_ADDRESS,
    }),
  );
}

/** The SAFE-CREATE /submit body (no nonce, no metadata, as the public client sends it). */
export async function buildSafeCreateSubmit(
  signer: RelayerSigner,
  args: { chainId: number; safeFactory: Address; safe: Address },
): Promise<Record<string, unknown>> {
  return {
    from: signer.address,
    to: args.safeFactory,
    proxyWallet: args.safe,
    data: '0x',
    signature: await signCreateProxy(signer, args.chainId, args.safeFactory),
    signatureParams: { paymentToken: ZERO_ADDRESS, payment: '0', paymentReceiver: ZERO_ADDRESS },
    type: 'SAFE-CREATE',
  };
}

/** The POST /wallet/safe body. */
export async function buildWalletSafeBody(
  signer: RelayerSigner,
  args: { chainId: number; safeFactory: Address } & CreateProxyTerms,
): Promise<Record<string, unknown>> {
  const terms = { paymentToken: args.paymentToken ?? ZERO_ADDRESS, payment: args.payment ?? 0n, paymentReceiver: args.paymentReceiver ?? ZERO_ADDRESS };
  return {
    owner: signer.address,
    paymentToken: terms.paymentToken,
    payment: terms.payment.toString(),
    paymentReceiver: terms.paymentReceiver,
    signature: await signCreateProxy(signer, args.chainId, args.safeFactory, terms),
  };
}

export interface ProxyWalletCall {
  type?: 'CALL' | 'DELEGATE_CALL';
  to: Address;
  data?: Hex;
  value?: bigint;
}

function toProxyCalls(calls: readonly ProxyWalletCall[]) {
  return calls.map((c) => ({ typeCode: PROXY_CALL_TYPE[c.type ?? 'CALL'], to: c.to, value: c.value ?? 0n, data: (c.data ?? '0x').toLowerCase() as Hex }));
}

/** EIP-191 signature of the rlx: hash (the owner signs the raw 32 bytes). */
export async function signRelayRequest(
  signer: RelayerSigner,
  payload: RelayPayloadResponse,
  encodedFunction: Hex,
  overrides: { gasLimit?: bigint } = {},
): Promise<Hex> {
  const hash = rlxHash({
    from: signer.address,
    to: payload.proxyFactory as Address,
    encodedFunction,
    transactionFee: BigInt(payload.relayerFee),
    gasPrice: BigInt(payload.gasPrice),
    gasLimit: overrides.gasLimit ?? BigInt(payload.gasLimit),
    nonce: BigInt(payload.nonce),
    relayHub: payload.relayHub as Address,
    relay: payload.address as Address,
  });
  return signer.signMessage({ message: { raw: hash } });
}

/** The POST /wallet/proxy body, signed over the backend values of GET /relay-payload. */
export async function buildWalletProxyBody(
  signer: RelayerSigner,
  payload: RelayPayloadResponse,
  calls: readonly ProxyWalletCall[],
): Promise<Record<string, unknown>> {
  const encoded = encodeProxyCalls(toProxyCalls(calls));
  return {
    owner: signer.address,
    calls: calls.map((c) => ({ type: c.type ?? 'CALL', to: c.to, value: (c.value ?? 0n).toString(), data: (c.data ?? '0x').toLowerCase() })),
    nonce: payload.nonce,
    signature: await signRelayRequest(signer, payload, encoded),
  };
}

/** The PROXY /submit body (public client shape); `gasLimit` defaults to the payload's. */
export async function buildProxySubmit(
  signer: RelayerSigner,
  payload: RelayPayloadResponse,
  calls: readonly ProxyWalletCall[],
  opts: { gasLimit?: bigint; proxyWallet?: Address; metadata?: string } = {},
): Promise<Record<string, unknown>> {
  const data = encodeProxyCalls(toProxyCalls(calls));
  const gasLimit = opts.gasLimit ?? BigInt(payload.gasLimit);
  return {
    from: signer.address,
    to: payload.proxyFactory,
    ...(opts.proxyWallet ? { proxyWallet: opts.proxyWallet } : {}),
    data,
    nonce: payload.nonce,
    signature: await signRelayRequest(signer, payload, data, { gasLimit }),
    signatureParams: {
      gasPrice: payload.gasPrice,
      gasLimit: gasLimit.toString(),
      relayerFee: payload.relayerFee,
      relayHub: payload.relayHub,
      relay: payload.address,
    },
    type: 'PROXY',
    metadata: opts.metadata ?? '',
  };
}
