/**
 * The contract's own relayer routes (interface §4.4): POST /operations/approve, /wallet/proxy and
 * /wallet/safe. Each persists its transaction like a /submit (same table, same pipeline, so a restart
 * resumes it and GET /transactions lists it) and then waits for the outcome to answer synchronously.
 */
import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { ApiError } from '../../protocol/errors.js';
import { encodeProxyCalls, PROXY_CALL_TYPE, recoverRelaySigner, ZERO_ADDRESS, ZERO_HASH, type ProxyCall } from '../../protocol/relayerSigning.js';
import type { RelayerTxRow } from '../../store/relayerRepo.js';
import { KeyedQueue } from './keyedQueue.js';
import { RELAY_HUB_ABI } from '../../chain/abis.js';
import type { RelayerChain } from './relayerChain.js';
import type { RelayerSettings } from './relayerSettings.js';
import {
  fieldError,
  parseAddress,
  parseEnum,
  parseOptionalAddress,
  parseOptionalHexData,
  parseOptionalUint,
  parseSignature,
  parseUint,
  requireBody,
} from './relayerValidation.js';
import type { NewRow, SubmitPreparer } from './submitPreparer.js';
import { CAN_RELAY_FAILED_PREFIX, RELAY_CALL_REVERTED_PREFIX, TRANSPORT_ERROR_PREFIX } from './transactionPipeline.js';

export interface TxResult {
  txHash: string;
  confirmations: number;
}

/** What the operations need from the service: persist-and-drive, and wait. */
export interface OperationsHost {
  readonly chain: RelayerChain;
  readonly settings: RelayerSettings;
  readonly preparer: SubmitPreparer;
  readonly walletQueue: KeyedQueue;
  persist(owner: Address, row: NewRow): Promise<RelayerTxRow>;
  waitForFinal(id: string): Promise<RelayerTxRow>;
  confirmationsOf(row: RelayerTxRow): Promise<number>;
}

function ownerMismatch(field: string, value: string, auth: Address): ApiError {
  return new ApiError('owner_address_mismatch', `${field} ${value} must equal the SERVICE_ADDRESS header (${auth}): a key may only act for its own address.`, {
    details: { field, expected: auth },
  });
}

export class WalletOperations {
  /** Operator approvals run strictly one at a time (interface §4.4). */
  private readonly approvals = new KeyedQueue();

  constructor(private readonly host: OperationsHost) {}

  async approve(auth: Address, raw: unknown): Promise<TxResult> {
    this.host.chain.requireEnabled();
    const body = requireBody(raw);
    const token = parseAddress(body.token, 'token');
    const spender = parseAddress(body.spender, 'spender');
    const amount = parseUint(body.amount, 'amount');
    const { chain } = this.host;
    await chain.ready();
    if (!(await chain.hasCode(token))) throw fieldError('token', `is not a contract on this chain (${token} has no code); pass an ERC-20 address such as GET /config contracts.collateral`);
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
    return this.approvals.run('approve', async () => {
      const row = await this.host.persist(auth, {
        type: 'APPROVE',
        from: chain.operatorAddress,
        to: token,
        proxyAddress: '',
        data,
        nonce: '',
        value: '',
        signature: '',
        metadata: `approve ${spender} ${amount}`,
        sender: 'operator',
        outerTo: token,
        outerData: data,
        outerValue: '0',
        outerGas: '200000',
      });
      const done = await this.host.waitForFinal(row.id);
      if (done.state === 'STATE_CONFIRMED') return { txHash: done.txHash, confirmations: await this.host.confirmationsOf(done) };
      throw this.failure(done, (msg) => new ApiError('upstream_rpc_error', msg, { details: { transactionID: done.id, txHash: done.txHash } }));
    });
  }

  async walletSafe(auth: Address, raw: unknown): Promise<TxResult & { safe: string }> {
    this.host.chain.requireEnabled();
    const body = requireBody(raw);
    const owner = parseAddress(body.owner, 'owner');
    const paymentToken = parseOptionalAddress(body.paymentToken, 'paymentToken', ZERO_ADDRESS);
    const payment = parseOptionalUint(body.payment, 'payment', 0n);
    const paymentReceiver = parseOptionalAddress(body.paymentReceiver, 'paymentReceiver', ZERO_ADDRESS);
    const signature = parseSignature(body.signature, 'signature');
    if (owner !== auth) throw ownerMismatch('owner', owner, auth);
    const { chain } = this.host;
    await chain.ready();
    const safe = chain.walletOf(owner, 'SAFE');
    const reverted = (problem: string) => new ApiError('safe_proxy_deployment_reverted', `safe proxy deployment reverted: ${problem}.`);

    return this.host.walletQueue.run(`wallet:${safe}`, async () => {
      if (await chain.hasCode(safe)) return { txHash: ZERO_HASH, confirmations: this.host.settings.confirmations, safe };
      const prepared = await this.host.preparer.safeCreate(
        { type: 'SAFE-CREATE', from: owner, to: chain.contracts().safeFactory, proxyWallet: safe, data: '0x', signature, metadata: '', paymentToken, payment, paymentReceiver },
        reverted,
      );
      const row = await this.host.persist(auth, prepared);
      const done = await this.host.waitForFinal(row.id);
      if (done.state === 'STATE_CONFIRMED') return { txHash: done.txHash, confirmations: await this.host.confirmationsOf(done), safe };
      throw this.failure(done, (msg) => reverted(msg));
    });
  }

  async walletProxy(auth: Address, raw: unknown): Promise<TxResult & { proxyWallet: string }> {
    this.host.chain.requireEnabled();
    const body = requireBody(raw);
    const owner = parseAddress(body.owner, 'owner');
    const calls = parseCalls(body.calls);
    const nonce = parseUint(body.nonce, 'nonce');
    const signature = parseSignature(body.signature, 'signature');
    const approvalData = parseOptionalHexData(body.approvalData, 'approvalData');
    if (owner !== auth) throw ownerMismatch('owner', owner, auth);
    const { chain, settings } = this.host;
    await chain.ready();
    const { proxyFactory, relayHub } = chain.contracts();
    const wallet = chain.walletOf(owner, 'PROXY');

    return this.host.walletQueue.run(`proxy:${wallet}`, async () => {
      const exists = await chain.hasCode(wallet);
      if (calls.length === 0 && exists) return { txHash: ZERO_HASH, confirmations: settings.confirmations, proxyWallet: wallet };

      // Rule 5: the payload is built here, with the hub's nonce and the backend's gas values.
      const hubNonce = await chain.public.readContract({ address: relayHub, abi: RELAY_HUB_ABI, functionName: 'getNonce', args: [owner] });
      if (nonce !== hubNonce) {
        throw new ApiError('relay_nonce_mismatch', `relay nonce ${nonce} is not the hub's nonce for ${owner} (${hubNonce}) (WrongNonce). Fetch it with GET /relay-payload?address=${owner}&type=PROXY and re-sign.`, {
          details: { field: 'nonce', expected: hubNonce.toString() },
        });
      }
      const relayRequest = {
        from: owner,
        to: proxyFactory,
        encodedFunction: encodeProxyCalls(calls),
        transactionFee: settings.relayerFee,
        gasPrice: settings.relayGasPrice,
        gasLimit: settings.relayGasLimit,
        nonce: hubNonce,
        relayHub,
        relay: chain.relayAddress,
      };
      const signer = await recoverRelaySigner(relayRequest, signature).catch((e: Error) => {
        throw new ApiError('invalid_relayer_signature', `Field 'signature' is not usable: ${e.message}.`, { details: { field: 'signature' } });
      });
      if (signer.toLowerCase() !== owner) {
        throw new ApiError(
          'invalid_relayer_signature',
          `Field 'signature' recovers to ${signer.toLowerCase()}, not ${owner} (WrongSignature): sign the rlx: hash built with the backend's values from GET /relay-payload (gasPrice ${settings.relayGasPrice}, gasLimit ${settings.relayGasLimit}, relayerFee ${settings.relayerFee}); client gas values are ignored.`,
          { details: { field: 'signature', recovered: signer.toLowerCase() } },
        );
      }
      await this.host.preparer.expectCanRelay(relayRequest, signature, approvalData, (code, name) =>
        code === 2
          ? new ApiError('relay_nonce_mismatch', `RelayHub.canRelay refused the request: WrongNonce (2). Fetch a fresh nonce and re-sign.`)
          : new ApiError(code === 1 ? 'invalid_relayer_signature' : 'invalid_relayer_payload', `RelayHub.canRelay refused the request: ${name} (${code}).`),
      );
      const outerData = this.host.preparer.relayCallData(relayRequest, signature, approvalData);
      const row = await this.host.persist(owner, {
        type: 'PROXY',
        from: owner,
        to: proxyFactory,
        proxyAddress: wallet,
        data: relayRequest.encodedFunction,
        nonce: hubNonce.toString(),
        value: '',
        signature,
        metadata: '',
        sender: 'relay',
        outerTo: relayHub,
        outerData,
        outerValue: '0',
        outerGas: (settings.relayGasLimit + settings.relayOuterGasOverhead).toString(),
      });
      const done = await this.host.waitForFinal(row.id);
      if (done.state === 'STATE_CONFIRMED') return { txHash: done.txHash, confirmations: await this.host.confirmationsOf(done), proxyWallet: wallet };
      if (done.errorMsg.startsWith(RELAY_CALL_REVERTED_PREFIX)) {
        // Rule 6: the relay transaction was posted (and the nonce used); the calls reverted.
        throw new ApiError('relay_call_reverted', `${done.errorMsg}. The relay transaction was posted; fix the calls, fetch the new nonce and re-sign.`, {
          details: { txHash: done.txHash, transactionID: done.id, proxyWallet: wallet },
        });
      }
      if (done.errorMsg.startsWith(CAN_RELAY_FAILED_PREFIX)) {
        throw new ApiError(/WrongNonce/.test(done.errorMsg) ? 'relay_nonce_mismatch' : 'invalid_relayer_signature', `${done.errorMsg}. Fetch a fresh nonce and re-sign.`, {
          details: { txHash: done.txHash, transactionID: done.id },
        });
      }
      throw this.failure(done, (msg) => new ApiError('upstream_rpc_error', msg, { details: { transactionID: done.id, txHash: done.txHash } }));
    });
  }

  /** A transaction that did not confirm: transport loss → 502 wallet_transport_error, else the route's own error. */
  private failure(done: RelayerTxRow, otherwise: (msg: string) => ApiError): ApiError {
    if (done.errorMsg.startsWith(TRANSPORT_ERROR_PREFIX)) {
      return new ApiError('wallet_transport_error', `${done.errorMsg}. The transaction ${done.id} is ${done.state}.`, { details: { transactionID: done.id } });
    }
    if (done.state === 'STATE_NEW' || done.state === 'STATE_EXECUTED' || done.state === 'STATE_MINED') {
      return new ApiError(
        'wallet_transport_error',
        `wallet_transport_error: transaction ${done.id} is still ${done.state} after ${this.host.settings.waitTimeoutMs / 1000}s; poll GET /transaction?id=${done.id}.`,
        { details: { transactionID: done.id, txHash: done.txHash } },
      );
    }
    return otherwise(done.errorMsg);
  }
}

/** interface §4.4 calls[]: CALL | DELEGATE_CALL, strict decimal value, lowercase hex data. */
function parseCalls(raw: unknown): ProxyCall[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw fieldError('calls', 'must be an array of {type, to, value?, data?}');
  if (raw.length > 100) throw fieldError('calls', 'must have at most 100 entries');
  return raw.map((c: unknown, i) => {
    const f = (name: string) => `calls[${i}].${name}`;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) throw fieldError(`calls[${i}]`, 'must be an object {type, to, value?, data?}');
    const call = c as Record<string, unknown>;
    const type = parseEnum(call.type, f('type'), ['CALL', 'DELEGATE_CALL'] as const);
    return {
      typeCode: PROXY_CALL_TYPE[type],
      to: parseAddress(call.to, f('to')),
      value: parseOptionalUint(call.value, f('value'), 0n),
      data: parseOptionalHexData(call.data, f('data'), { lowercase: true }) as Hex,
    };
  });
}
