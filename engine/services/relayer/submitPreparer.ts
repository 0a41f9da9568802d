/**
 * Turns a checked /submit request into a STATE_NEW row, after everything that can be known up front
 * has been checked against the chain (relayer-api.md §12.4): wallet derivation, deployment, nonce,
 * signature, and a pre-flight call. Runs inside the wallet's queue, so the nonce check and the
 * persisted row cannot race another submission for the same wallet.
 */
import { decodeFunctionData, encodeFunctionData, type Address, type Hex } from 'viem';
import { ApiError } from '../../protocol/errors.js';
import {
  PROXY_FACTORY_PROXY_ABI,
  recoverCreateProxySigner,
  recoverRelaySigner,
  recoverSafeSigner,
  safeTxHash,
  splitSignature,
} from '../../protocol/relayerSigning.js';
import type { RelayerRepo, RelayerTxRow } from '../../store/relayerRepo.js';
import { CAN_RELAY_REASON, RELAY_HUB_ABI, SAFE_ABI, SAFE_PROXY_FACTORY_ABI } from '../../chain/abis.js';
import { chainErrorMessage, isTransportError, type RelayerChain } from './relayerChain.js';
import type { RelayerSettings } from './relayerSettings.js';
import type { ProxySubmit, SafeCreateSubmit, SafeSubmit } from './submitRequest.js';
import { fieldError } from './relayerValidation.js';

export type NewRow = Omit<RelayerTxRow, 'id' | 'state' | 'owner' | 'txHash' | 'errorMsg' | 'rawTx' | 'blockNumber' | 'createdAt' | 'updatedAt'>;

function payloadError(field: string, problem: string): ApiError {
  return fieldError(field, problem, { code: 'invalid_relayer_payload' });
}

/** Gas for a pre-flighted call, with headroom for state that moves between estimate and inclusion. */
function withHeadroom(estimate: bigint): bigint {
  return (estimate * 13n) / 10n + 30_000n;
}

export class SubmitPreparer {
  constructor(
    private readonly chain: RelayerChain,
    private readonly repo: RelayerRepo,
    private readonly settings: RelayerSettings,
  ) {}

  /** Pre-flight: estimateGas as the sender; a revert is a 400 naming the reason, nothing is queued. */
  async preflight(from: Address, to: Address, data: Hex, value = 0n): Promise<bigint> {
    try {
      return await this.chain.public.estimateGas({ account: from, to, data, value });
    } catch (e) {
      if (isTransportError(e)) throw e;
      throw new ApiError('execution_reverted', `The transaction would revert on chain (${chainErrorMessage(e)}), so it was not queued. Fix the call and re-sign.`);
    }
  }

  async safe(req: SafeSubmit): Promise<NewRow> {
    const safe = this.chain.walletOf(req.from, 'SAFE');
    if (req.proxyWallet !== safe) {
      throw payloadError('proxyWallet', `is not the Safe of 'from': expected ${safe} (GET /deployed?address=<from>&type=SAFE)`);
    }
    if (!(await this.chain.hasCode(safe))) {
      throw new ApiError('safe_not_deployed', `The Safe ${safe} of ${req.from} is not deployed. Deploy it with a SAFE-CREATE submission or POST /wallet/safe first.`);
    }
    const onChain = await this.chain.public.readContract({ address: safe, abi: SAFE_ABI, functionName: 'nonce' });
    if (req.nonce !== onChain) {
      throw new ApiError('relayer_nonce_conflict', `nonce ${req.nonce} is ${req.nonce < onChain ? 'stale (already used)' : 'ahead of the Safe'}: the Safe's next nonce is ${onChain}. Fetch it with GET /nonce?address=<from>&type=SAFE and re-sign.`, {
        details: { field: 'nonce', expected: onChain.toString() },
      });
    }
    this.rejectNonceInFlight(safe, 'SAFE', req.nonce);

    const tx = {
      to: req.to,
      value: req.value,
      data: req.data,
      operation: req.operation,
      safeTxGas: req.safeTxGas,
      baseGas: req.baseGas,
      gasPrice: req.gasPrice,
      gasToken: req.gasToken,
      refundReceiver: req.refundReceiver,
      nonce: req.nonce,
    };
    const hash = safeTxHash(this.chain.chainId, safe, tx);
    await this.expectSigner(() => recoverSafeSigner(hash, req.signature), req.from, `the SafeTx hash ${hash} (Safe ${safe}, chain ${this.chain.chainId}); sign it with eth_sign (v 31/32) or EIP-712 (v 27/28)`);

    const outerData = encodeFunctionData({
      abi: SAFE_ABI,
      functionName: 'execTransaction',
      args: [tx.to, tx.value, tx.data, tx.operation, tx.safeTxGas, tx.baseGas, tx.gasPrice, tx.gasToken, tx.refundReceiver, req.signature],
    });
    const gas = await this.preflight(this.chain.relayAddress, safe, outerData).catch(async (e: unknown) => {
      throw await this.explainSafeRevert(e, safe, req);
    });
    return {
      type: 'SAFE',
      from: req.from,
      to: req.to,
      proxyAddress: safe,
      data: req.data,
      nonce: req.nonce.toString(),
      value: req.valueText,
      signature: req.signature,
      metadata: req.metadata,
      sender: 'relay',
      outerTo: safe,
      outerData,
      outerValue: '0',
      outerGas: withHeadroom(gas).toString(),
    };
  }

  /**
   * GS013 only says "the inner call failed": for a plain CALL, replay it as the Safe to name the reason.
   * (A DELEGATECALL batch cannot be replayed without state overrides; its message explains GS013.)
   */
  private async explainSafeRevert(e: unknown, safe: Address, req: SafeSubmit): Promise<unknown> {
    if (!(e instanceof ApiError) || e.code !== 'execution_reverted' || !/GS013/.test(e.message)) return e;
    let inner = 'the Safe\'s inner call reverted (GS013: safeTxGas and gasPrice are 0, so the whole execTransaction reverts)';
    if (req.operation === 0) {
      try {
        await this.chain.public.call({ account: safe, to: req.to, data: req.data, value: req.value });
      } catch (x) {
        if (!isTransportError(x)) inner = `the Safe's call to ${req.to} reverted: ${chainErrorMessage(x)} (GS013)`;
      }
    }
    return new ApiError('execution_reverted', `The transaction would revert on chain (${inner}), so it was not queued. Fix the call and re-sign.`);
  }

  /** Shared by SAFE-CREATE and POST /wallet/safe; `onBadSignature` decides the error code. */
  async safeCreate(req: SafeCreateSubmit, onBadSignature: (problem: string) => ApiError): Promise<NewRow> {
    const { safeFactory } = this.chain.contracts();
    if (req.to !== safeFactory) throw payloadError('to', `must be the Safe factory ${safeFactory} (GET /config contracts.safeFactory)`);
    const safe = this.chain.walletOf(req.from, 'SAFE');
    if (req.proxyWallet !== null && req.proxyWallet !== safe) {
      throw payloadError('proxyWallet', `is not the Safe of 'from': expected ${safe}`);
    }
    if (await this.chain.hasCode(safe)) {
      throw new ApiError('safe_already_deployed', `The Safe ${safe} of ${req.from} is already deployed; execute transactions through it with type SAFE.`);
    }
    const inFlight = this.repo.listOpenForWallet(safe, 'SAFE-CREATE')[0];
    if (inFlight) {
      throw new ApiError('safe_already_deployed', `A deployment of the Safe ${safe} is already in flight (transaction ${inFlight.id}, ${inFlight.state}); poll GET /transaction?id=${inFlight.id}.`);
    }
    const message = { paymentToken: req.paymentToken, payment: req.payment, paymentReceiver: req.paymentReceiver };
    let signer: Address;
    try {
      signer = await recoverCreateProxySigner(this.chain.chainId, safeFactory, message, req.signature, this.chain.safeFactoryName);
    } catch (e) {
      throw onBadSignature(`the CreateProxy signature is not usable: ${(e as Error).message}`);
    }
    if (signer.toLowerCase() !== req.from) {
      throw onBadSignature(
        `the CreateProxy signature recovers to ${signer.toLowerCase()}, not ${req.from}: sign CreateProxy{paymentToken, payment, paymentReceiver} exactly as sent, under the domain {name:"${this.chain.safeFactoryName}", chainId:${this.chain.chainId}, verifyingContract:${safeFactory}}`,
      );
    }
    const { r, s, v } = splitSignature(req.signature);
    const outerData = encodeFunctionData({
      abi: SAFE_PROXY_FACTORY_ABI,
      functionName: 'createProxy',
      args: [req.paymentToken, req.payment, req.paymentReceiver, { v, r, s }],
    });
    let gas: bigint;
    try {
      gas = await this.chain.public.estimateGas({ account: this.chain.relayAddress, to: safeFactory, data: outerData });
    } catch (e) {
      if (isTransportError(e)) throw e;
      throw onBadSignature(`the factory would revert: ${chainErrorMessage(e)}`);
    }
    return {
      type: 'SAFE-CREATE',
      from: req.from,
      to: safeFactory,
      proxyAddress: safe,
      data: req.data,
      nonce: '',
      value: '',
      signature: req.signature,
      metadata: req.metadata,
      sender: 'relay',
      outerTo: safeFactory,
      outerData,
      outerValue: '0',
      outerGas: withHeadroom(gas).toString(),
    };
  }

  async proxy(req: ProxySubmit): Promise<NewRow> {
    const { proxyFactory, relayHub } = this.chain.contracts();
    if (req.to !== proxyFactory) throw payloadError('to', `must be the proxy wallet factory ${proxyFactory} (GET /relay-payload proxyFactory)`);
    if (req.relayHub !== relayHub) throw payloadError('signatureParams.relayHub', `must be the relay hub ${relayHub} (GET /relay-payload relayHub)`);
    if (req.relay !== this.chain.relayAddress) throw payloadError('signatureParams.relay', `must be the relay ${this.chain.relayAddress} (GET /relay-payload address)`);
    if (req.gasPrice !== this.settings.relayGasPrice) throw payloadError('signatureParams.gasPrice', `must be "${this.settings.relayGasPrice}" (GET /relay-payload gasPrice)`);
    if (req.relayerFee !== this.settings.relayerFee) throw payloadError('signatureParams.relayerFee', `must be "${this.settings.relayerFee}" (GET /relay-payload relayerFee)`);
    if (req.gasLimit < 21_000n || req.gasLimit > this.settings.maxRelayGasLimit) {
      throw payloadError('signatureParams.gasLimit', `must be between 21000 and ${this.settings.maxRelayGasLimit}`);
    }
    try {
      decodeFunctionData({ abi: PROXY_FACTORY_PROXY_ABI, data: req.data });
    } catch {
      throw payloadError('data', 'must be proxy((uint8,address,uint256,bytes)[]) calldata for the proxy wallet factory (selector 0x34ee9791)');
    }
    const wallet = this.chain.walletOf(req.from, 'PROXY');
    if (req.proxyWallet !== null && req.proxyWallet !== wallet) throw payloadError('proxyWallet', `is not the proxy wallet of 'from': expected ${wallet}`);

    const hubNonce = await this.chain.public.readContract({ address: relayHub, abi: RELAY_HUB_ABI, functionName: 'getNonce', args: [req.from] });
    if (req.nonce !== hubNonce) {
      throw new ApiError('relayer_nonce_conflict', `nonce ${req.nonce} is ${req.nonce < hubNonce ? 'stale (already used)' : 'ahead'}: the relay hub's nonce of ${req.from} is ${hubNonce}. Fetch it with GET /relay-payload?address=<from>&type=PROXY and re-sign.`, {
        details: { field: 'nonce', expected: hubNonce.toString() },
      });
    }
    this.rejectNonceInFlight(wallet, 'PROXY', req.nonce);

    const relayRequest = {
      from: req.from,
      to: proxyFactory,
      encodedFunction: req.data,
      transactionFee: req.relayerFee,
      gasPrice: req.gasPrice,
      gasLimit: req.gasLimit,
      nonce: req.nonce,
      relayHub,
      relay: this.chain.relayAddress,
    };
    await this.expectSigner(() => recoverRelaySigner(relayRequest, req.signature), req.from, 'the rlx: hash of this request (EIP-191 personal_sign of the 32 bytes)');
    await this.expectCanRelay(relayRequest, req.signature, req.approvalData);
    // The relay hub never reverts on an inner failure; check the batch itself up front.
    await this.preflight(req.from, proxyFactory, req.data);

    const outerData = this.relayCallData(relayRequest, req.signature, req.approvalData);
    return {
      type: 'PROXY',
      from: req.from,
      to: proxyFactory,
      proxyAddress: wallet,
      data: req.data,
      nonce: req.nonce.toString(),
      value: '',
      signature: req.signature,
      metadata: req.metadata,
      sender: 'relay',
      outerTo: relayHub,
      outerData,
      outerValue: '0',
      outerGas: (req.gasLimit + this.settings.relayOuterGasOverhead).toString(),
    };
  }

  relayCallData(r: { from: Address; to: Address; encodedFunction: Hex; transactionFee: bigint; gasPrice: bigint; gasLimit: bigint; nonce: bigint }, signature: Hex, approvalData: Hex): Hex {
    return encodeFunctionData({
      abi: RELAY_HUB_ABI,
      functionName: 'relayCall',
      args: [r.from, r.to, r.encodedFunction, r.transactionFee, r.gasPrice, r.gasLimit, r.nonce, signature, approvalData],
    });
  }

  /** RelayHub.canRelay as the relay will call it: 0 or a 400 naming the GSN reason. */
  async expectCanRelay(
    r: { from: Address; to: Address; encodedFunction: Hex; transactionFee: bigint; gasPrice: bigint; gasLimit: bigint; nonce: bigint; relayHub: Address },
    signature: Hex,
    approvalData: Hex,
    onFail?: (code: number, name: string) => ApiError,
  ): Promise<void> {
    const [status] = await this.chain.public.readContract({
      address: r.relayHub,
      abi: RELAY_HUB_ABI,
      functionName: 'canRelay',
      args: [this.chain.relayAddress, r.from, r.to, r.encodedFunction, r.transactionFee, r.gasPrice, r.gasLimit, r.nonce, signature, approvalData],
    });
    if (status === 0n) return;
    const code = Number(status);
    const name = CAN_RELAY_REASON[code] ?? 'recipient refused';
    if (onFail) throw onFail(code, name);
    if (code === 1) throw new ApiError('invalid_relayer_signature', `RelayHub.canRelay refused the request: WrongSignature (1). Sign the rlx: hash with the GET /relay-payload values.`);
    if (code === 2) throw new ApiError('relayer_nonce_conflict', 'RelayHub.canRelay refused the request: WrongNonce (2). Fetch a fresh nonce and re-sign.');
    throw new ApiError('invalid_relayer_payload', `RelayHub.canRelay refused the request: ${name} (${code}); the proxy factory only accepts proxy(...) calls.`);
  }

  private async expectSigner(recover: () => Promise<Address>, expected: Address, what: string): Promise<void> {
    let signer: Address;
    try {
      signer = await recover();
    } catch (e) {
      throw new ApiError('invalid_relayer_signature', `Field 'signature' is not usable: ${(e as Error).message}.`, { details: { field: 'signature' } });
    }
    if (signer.toLowerCase() !== expected) {
      throw new ApiError('invalid_relayer_signature', `Field 'signature' recovers to ${signer.toLowerCase()}, not ${expected}: it must sign ${what}.`, {
        details: { field: 'signature', recovered: signer.toLowerCase() },
      });
    }
  }

  /** A nonce held by a transaction still in flight is taken, even though the chain does not show it yet. */
  private rejectNonceInFlight(wallet: Address, type: 'SAFE' | 'PROXY', nonce: bigint): void {
    const taken = this.repo.listOpenForWallet(wallet, type).find((r) => r.nonce === nonce.toString());
    if (taken) {
      throw new ApiError('relayer_nonce_conflict', `nonce ${nonce} is already used by transaction ${taken.id} (${taken.state}); wait for it (GET /transaction?id=${taken.id}), then fetch a fresh nonce.`, {
        details: { field: 'nonce', transactionID: taken.id },
      });
    }
  }
}
