import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  decodeEventLog,
  encodeFunctionData,
  encodePacked,
  maxUint256,
  parseSignature,
  serializeSignature,
  zeroAddress,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { resolveConfig } from '../config.js';
import { createProxyTypedData, encodeMultiSend, rlxHash, safeTxHash, type ProxyCall as Call } from '../protocol/relayerSigning.js';
import { deriveProxyWalletAddress, deriveSafeAddress } from '../protocol/walletAddresses.js';
import { COLLATERAL_ABI, ERC20_ABI, PROXY_WALLET_FACTORY_ABI, RELAY_HUB_ABI, SAFE_ABI, SAFE_PROXY_FACTORY_ABI } from './abis.js';
import { mintCollateral } from './conditions.js';
import { startChain, type ConnectedChain } from './startChain.js';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('wallet contracts on a local anvil', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-contracts-'));
  const config = resolveConfig({ dataDir, chain: 'anvil' });
  let chain: ConnectedChain;

  before(async () => {
    chain = (await startChain(config, { operatorPrivateKey: generatePrivateKey(), relayPrivateKey: generatePrivateKey() })) as ConnectedChain;
  });
  after(async () => {
    await chain?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // ---------------------------------------------------------------- Safe

  function createProxySignature(owner: PrivateKeyAccount): Promise<Hex> {
    return owner.signTypedData(
      createProxyTypedData(config.chainId, chain.deployment.safeFactory, { paymentToken: zeroAddress, payment: 0n, paymentReceiver: zeroAddress }),
    );
  }

  function createProxyArgs(signature: Hex) {
    const { r, s, v } = parseSignature(signature);
    return [zeroAddress, 0n, zeroAddress, { v: Number(v), r, s }] as const;
  }

  it('creates the owner’s Safe at deriveSafeAddress from a CreateProxy signature sent by someone else', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const signature = await createProxySignature(owner);
    const hash = await chain.relayWallet.writeContract({
      address: chain.deployment.safeFactory,
      abi: SAFE_PROXY_FACTORY_ABI,
      functionName: 'createProxy',
      args: createProxyArgs(signature),
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    const safe = deriveSafeAddress(owner.address, chain.deployment);
    const created = receipt.logs
      .filter((l) => l.address.toLowerCase() === chain.deployment.safeFactory.toLowerCase())
      .map((l) => decodeEventLog({ abi: SAFE_PROXY_FACTORY_ABI, ...l }));
    assert.deepEqual(created.map((e) => e.args), [{ proxy: safe, owner: owner.address }]);
    const read = { address: safe, abi: SAFE_ABI } as const;
    assert.deepEqual(await chain.publicClient.readContract({ ...read, functionName: 'getOwners' }), [owner.address]);
    assert.equal(await chain.publicClient.readContract({ ...read, functionName: 'getThreshold' }), 1n);
    assert.equal(await chain.publicClient.readContract({ ...read, functionName: 'nonce' }), 0n);
    assert.equal(await chain.publicClient.readContract({ ...read, functionName: 'VERSION' }), '1.3.0');

    // No replay guard beyond CREATE2: the same signature for the same owner cannot create a second Safe.
    await assert.rejects(
      chain.publicClient.simulateContract({
        account: chain.relayAddress,
        address: chain.deployment.safeFactory,
        abi: SAFE_PROXY_FACTORY_ABI,
        functionName: 'createProxy',
        args: createProxyArgs(signature),
      }),
      /create2 call failed/,
    );
  });

  it('rejects a malleable high-s CreateProxy signature and a bad v', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const { r, s, yParity } = parseSignature(await createProxySignature(owner));
    const highS = `0x${(SECP256K1_N - BigInt(s)).toString(16).padStart(64, '0')}` as Hex;
    const flippedV = yParity === 0 ? 28 : 27;
    const simulate = (v: number, sVal: Hex) =>
      chain.publicClient.simulateContract({
        account: chain.relayAddress,
        address: chain.deployment.safeFactory,
        abi: SAFE_PROXY_FACTORY_ABI,
        functionName: 'createProxy',
        args: [zeroAddress, 0n, zeroAddress, { v, r, s: sVal }],
      });
    await assert.rejects(simulate(flippedV, highS), /invalid signature 's' value/);
    await assert.rejects(simulate(0, s), /invalid signature 'v' value/);
  });

  it('executes a MultiSend batch through a created Safe with an eth_sign (v+4) owner signature', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const create = await chain.relayWallet.writeContract({
      address: chain.deployment.safeFactory,
      abi: SAFE_PROXY_FACTORY_ABI,
      functionName: 'createProxy',
      args: createProxyArgs(await createProxySignature(owner)),
    });
    assert.equal((await chain.publicClient.waitForTransactionReceipt({ hash: create })).status, 'success');
    const safe = deriveSafeAddress(owner.address, chain.deployment);
    const token = chain.deployment.collateral;
    await mintCollateral(chain, safe, 10_000_000n);
    const payees = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address] as const;
    const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [to, amount] });
    const safeTx = {
      to: chain.deployment.multiSend,
      value: 0n,
      data: encodeMultiSend([transfer(payees[0], 1_000_000n), transfer(payees[1], 2_500_000n)].map((data) => ({ operation: 0, to: token, value: 0n, data }))),
      operation: 1,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce: 0n,
    } as const;
    const txHash = safeTxHash(config.chainId, safe, safeTx);
    const { r, s, v } = parseSignature(await owner.signMessage({ message: { raw: txHash } }));
    const signature = encodePacked(['bytes32', 'bytes32', 'uint8'], [r, s, Number(v) + 4]);
    const exec = await chain.relayWallet.writeContract({
      address: safe,
      abi: SAFE_ABI,
      functionName: 'execTransaction',
      args: [safeTx.to, 0n, safeTx.data, 1, 0n, 0n, 0n, zeroAddress, zeroAddress, signature],
    });
    assert.equal((await chain.publicClient.waitForTransactionReceipt({ hash: exec })).status, 'success');
    const balance = (a: Address) => chain.publicClient.readContract({ address: token, abi: ERC20_ABI, functionName: 'balanceOf', args: [a] });
    assert.equal(await balance(payees[0]), 1_000_000n);
    assert.equal(await balance(payees[1]), 2_500_000n);
    assert.equal(await balance(safe), 6_500_000n);
    assert.equal(await chain.publicClient.readContract({ address: safe, abi: SAFE_ABI, functionName: 'nonce' }), 1n);
  });

  // ---------------------------------------------------------------- proxy wallets through the RelayHub

  const GAS_LIMIT = 500_000n;

  /** The rlx: hash of a call to the local proxy factory through the local hub, fee-free. */
  const rlxOf = (from: Address, encodedFunction: Hex, nonce: bigint) =>
    rlxHash({
      from,
      to: chain.deployment.proxyFactory,
      encodedFunction,
      transactionFee: 0n,
      gasPrice: 0n,
      gasLimit: GAS_LIMIT,
      nonce,
      relayHub: chain.deployment.relayHub,
      relay: chain.relayAddress,
    });

  async function relayedProxyCall(owner: PrivateKeyAccount, calls: readonly Call[], opts: { signer?: PrivateKeyAccount; nonce?: bigint } = {}) {
    const hub = chain.deployment.relayHub;
    const factory = chain.deployment.proxyFactory;
    const nonce = opts.nonce ?? (await chain.publicClient.readContract({ address: hub, abi: RELAY_HUB_ABI, functionName: 'getNonce', args: [owner.address] }));
    const encodedFunction = encodeFunctionData({ abi: PROXY_WALLET_FACTORY_ABI, functionName: 'proxy', args: [calls] });
    const rlx = rlxOf(owner.address, encodedFunction, nonce);
    const signature = await (opts.signer ?? owner).signMessage({ message: { raw: rlx } });
    const hash = await chain.relayWallet.writeContract({
      address: hub,
      abi: RELAY_HUB_ABI,
      functionName: 'relayCall',
      args: [owner.address, factory, encodedFunction, 0n, 0n, GAS_LIMIT, nonce, signature, '0x'],
      gas: GAS_LIMIT + 400_000n,
    });
    return chain.publicClient.waitForTransactionReceipt({ hash });
  }

  function hubEvents(receipt: TransactionReceipt) {
    return receipt.logs
      .filter((l) => l.address.toLowerCase() === chain.deployment.relayHub.toLowerCase())
      .map((l) => decodeEventLog({ abi: RELAY_HUB_ABI, ...l }));
  }

  const approve = (token: Address, spender: Address, amount: bigint): Call => ({
    typeCode: 1,
    to: token,
    value: 0n,
    data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'approve', args: [spender, amount] }),
  });

  const hubNonce = (owner: Address) =>
    chain.publicClient.readContract({ address: chain.deployment.relayHub, abi: RELAY_HUB_ABI, functionName: 'getNonce', args: [owner] });

  it('deploys the owner’s proxy wallet on first use and runs a batch relayed with an rlx: signature', async () => {
    const owner = privateKeyToAccount(generatePrivateKey()); // holds no ether: the relay pays
    const token = chain.deployment.collateral;
    const spenders = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address] as const;
    const wallet = deriveProxyWalletAddress(owner.address, chain.deployment);
    assert.equal(await chain.publicClient.getCode({ address: wallet }), undefined);

    const receipt = await relayedProxyCall(owner, [approve(token, spenders[0], maxUint256), approve(token, spenders[1], 5_000_000n)]);
    assert.equal(receipt.status, 'success');
    const events = hubEvents(receipt);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.eventName, 'TransactionRelayed');
    assert.equal((events[0]!.args as { status: number }).status, 0);
    assert.ok((await chain.publicClient.getCode({ address: wallet }))!.length > 2, 'wallet deployed');
    const allowance = (spender: Address) =>
      chain.publicClient.readContract({ address: token, abi: ERC20_ABI, functionName: 'allowance', args: [wallet, spender] });
    assert.equal(await allowance(spenders[0]), maxUint256);
    assert.equal(await allowance(spenders[1]), 5_000_000n);
    assert.equal(await hubNonce(owner.address), 1n);

    // A second batch reuses the deployed wallet.
    const again = await relayedProxyCall(owner, [approve(token, spenders[1], 0n)]);
    assert.equal((hubEvents(again)[0]!.args as { status: number }).status, 0);
    assert.equal(await allowance(spenders[1]), 0n);
    assert.equal(await hubNonce(owner.address), 2n);
  });

  it('emits CanRelayFailed instead of reverting on a wrong signer or a stale nonce', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const call = approve(chain.deployment.collateral, stranger.address, 1n);

    const badSig = await relayedProxyCall(owner, [call], { signer: stranger });
    assert.equal(badSig.status, 'success');
    const [failed] = hubEvents(badSig);
    assert.equal(failed!.eventName, 'CanRelayFailed');
    assert.equal((failed!.args as { reason: bigint }).reason, 1n); // WrongSignature

    const badNonce = await relayedProxyCall(owner, [call], { nonce: 7n });
    assert.equal(badNonce.status, 'success');
    assert.equal((hubEvents(badNonce)[0]!.args as { reason: bigint }).reason, 2n); // WrongNonce
    assert.equal(await hubNonce(owner.address), 0n);
    assert.equal(await chain.publicClient.getCode({ address: deriveProxyWalletAddress(owner.address, chain.deployment) }), undefined);
  });

  it('reports an inner revert as TransactionRelayed status 1 and still advances the nonce', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const token = chain.deployment.collateral;
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const transferTooMuch: Call = {
      typeCode: 1,
      to: token,
      value: 0n,
      data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [spender, 1n] }),
    };
    const receipt = await relayedProxyCall(owner, [approve(token, spender, 9n), transferTooMuch]);
    assert.equal(receipt.status, 'success');
    const [relayed] = hubEvents(receipt);
    assert.equal(relayed!.eventName, 'TransactionRelayed');
    assert.equal((relayed!.args as { status: number }).status, 1); // RelayedCallFailed
    assert.equal(await hubNonce(owner.address), 1n);
    // The whole batch was undone, the approval included.
    const wallet = deriveProxyWalletAddress(owner.address, chain.deployment);
    assert.equal(await chain.publicClient.readContract({ address: token, abi: ERC20_ABI, functionName: 'allowance', args: [wallet, spender] }), 0n);
  });

  it('reverts a batch called directly by its owner with the failing call’s reason', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const token = chain.deployment.collateral;
    const wallet = deriveProxyWalletAddress(owner.address, chain.deployment);
    await mintCollateral(chain, wallet, 3_000_000n);
    const call = (amount: bigint): Call => ({
      typeCode: 1,
      to: token,
      value: 0n,
      data: encodeFunctionData({ abi: COLLATERAL_ABI, functionName: 'transfer', args: [owner.address, amount] }),
    });
    await assert.rejects(
      chain.publicClient.simulateContract({
        account: owner.address,
        address: chain.deployment.proxyFactory,
        abi: PROXY_WALLET_FACTORY_ABI,
        functionName: 'proxy',
        args: [[call(1_000_000n), call(5_000_000n)]],
      }),
      /SandboxUSD: transfer amount exceeds balance/,
    );
    // Called directly, msg.sender is the owner: the same wallet, no relay involved.
    const ok = await chain.publicClient.simulateContract({
      account: owner.address,
      address: chain.deployment.proxyFactory,
      abi: PROXY_WALLET_FACTORY_ABI,
      functionName: 'proxy',
      args: [[call(1_000_000n)]],
    });
    assert.equal(ok.result.length, 1);
  });

  it('refuses to relay anything but proxy() (recipient status → InvalidRecipientStatusCode)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const hub = chain.deployment.relayHub;
    const factory = chain.deployment.proxyFactory;
    const encodedFunction = encodeFunctionData({ abi: PROXY_WALLET_FACTORY_ABI, functionName: 'owner' });
    const rlx = rlxOf(owner.address, encodedFunction, 0n);
    const signature = await owner.signMessage({ message: { raw: rlx } });
    const [status] = await chain.publicClient.readContract({
      address: hub,
      abi: RELAY_HUB_ABI,
      functionName: 'canRelay',
      args: [chain.relayAddress, owner.address, factory, encodedFunction, 0n, 0n, GAS_LIMIT, 0n, signature, '0x'],
    });
    assert.equal(status, 4n);
    // A relayCall short of gasLimit + 350k gas is refused outright.
    await assert.rejects(
      chain.publicClient.simulateContract({
        account: chain.relayAddress,
        address: hub,
        abi: RELAY_HUB_ABI,
        functionName: 'relayCall',
        args: [owner.address, factory, encodedFunction, 0n, 0n, GAS_LIMIT, 0n, signature, '0x'],
        gas: GAS_LIMIT + 200_000n,
      }),
      /Not enough gasleft\(\)/,
    );
  });

  it('verifies the public PROXY vector of relayer-api.md §6 with the local RelayHub bytecode at the public hub address', async () => {
    const PUBLIC_HUB: Address = '0xD216153c06E857cD7f72665E0aF1d7D82172F494';
    const PUBLIC_FACTORY: Address = '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052';
    const RELAY: Address = '0xae700edfd9ab986395f3999fe11177b9903a52f1';
    const FROM: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const VECTOR_SIG: Hex =
      '0x4c18e2d2294a00d686714aff8e7936ab657cb4655dfccb2b556efadcb7e835f800dc2fecec69c501e29bb36ecb54b4da6b7c410c4dc740a33af2afde2b77297e1b';
    const approveData: Hex =
      '0x095ea7b30000000000000000000000004d97dcd97ec945f40cf65f87097ace5ea0476045ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff';
    const encodedFunction = encodeFunctionData({
      abi: PROXY_WALLET_FACTORY_ABI,
      functionName: 'proxy',
      args: [[{ typeCode: 1, to: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', value: 0n, data: approveData }]],
    });
    // Runtime code only: canRelay needs no constructor state, and the factory's immutables travel in its code.
    for (const [at, from] of [
      [PUBLIC_HUB, chain.deployment.relayHub],
      [PUBLIC_FACTORY, chain.deployment.proxyFactory],
    ] as const) {
      const code = await chain.publicClient.getCode({ address: from });
      await chain.publicClient.request({ method: 'anvil_setCode', params: [at, code!] } as never);
    }
    const canRelay = (signature: Hex) =>
      chain.publicClient.readContract({
        address: PUBLIC_HUB,
        abi: RELAY_HUB_ABI,
        functionName: 'canRelay',
        args: [RELAY, FROM, PUBLIC_FACTORY, encodedFunction, 0n, 0n, 85_338n, 0n, signature, '0x'],
      });
    assert.equal((await canRelay(VECTOR_SIG))[0], 0n);
    // Same signature, one flipped bit of s: no longer the signer (WrongSignature), not a revert.
    const { r, s, v } = parseSignature(VECTOR_SIG);
    const tampered = serializeSignature({ r, s: `0x${(BigInt(s) ^ 1n).toString(16).padStart(64, '0')}`, v: v! });
    assert.equal((await canRelay(tampered))[0], 1n);
  });
});
