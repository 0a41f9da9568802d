import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { encodeFunctionData, erc20Abi, maxUint256, type Address } from 'viem';
import {
  createProxyHash,
  createProxyTypedData,
  encodeMultiSend,
  encodeProxyCalls,
  recoverCreateProxySigner,
  recoverRelaySigner,
  recoverSafeSigner,
  rlxHash,
  safeTxHash,
  splitSignature,
  toSafeEthSignSignature,
  ZERO_ADDRESS,
  type RelayRequest,
  type SafeTx,
} from './relayerSigning.js';

// relayer-api.md §6: the public client's signature vectors (chain 137, Polygon factories).
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const account = privateKeyToAccount(KEY);
const USDCE: Address = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const APPROVE_DATA =
  '0x095ea7b30000000000000000000000004d97dcd97ec945f40cf65f87097ace5ea0476045ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff';
const SAFE: Address = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';

const safeTx: SafeTx = {
  to: USDCE,
  value: 0n,
  data: APPROVE_DATA,
  operation: 0,
  safeTxGas: 0n,
  baseGas: 0n,
  gasPrice: 0n,
  gasToken: ZERO_ADDRESS,
  refundReceiver: ZERO_ADDRESS,
  nonce: 0n,
};

const relay: RelayRequest = {
  from: account.address,
  to: '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052',
  encodedFunction: encodeProxyCalls([{ typeCode: 1, to: USDCE, value: 0n, data: APPROVE_DATA }]),
  transactionFee: 0n,
  gasPrice: 0n,
  gasLimit: 85338n,
  nonce: 0n,
  relayHub: '0xD216153c06E857cD7f72665E0aF1d7D82172F494',
  relay: '0xae700edfd9ab986395f3999fe11177b9903a52f1',
};

describe('relayer signing vectors (relayer-api.md §6)', () => {
  it('the approve calldata of the vectors is approve(spender, 2^256-1)', () => {
    assert.equal(encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: ['0x4D97DCd97eC945f40cF65F87097ACe5EA0476045', maxUint256] }), APPROVE_DATA);
  });

  it('hashes the SAFE vector to the public SafeTx hash', () => {
    assert.equal(safeTxHash(137, SAFE, safeTx), '0x6bbdd1e9bf24c2ab455c3a8196d5d721d1bdae79b361597ced180f884a8e1c28');
  });

  it('signs the SAFE vector with eth_sign and v+4 exactly as the public client', async () => {
    const raw = await account.signMessage({ message: { raw: safeTxHash(137, SAFE, safeTx) } });
    const sig = toSafeEthSignSignature(raw);
    assert.equal(
      sig,
      '0xf368488355b0566e99eff3bccc35e98b77d8f3a6e6866176188488c34f0305b07e4a4c600c7a1592e4ac1e96b5887ebff2cb26987a3ad501006b39944df098c21f',
    );
    assert.equal(await recoverSafeSigner(safeTxHash(137, SAFE, safeTx), sig), account.address);
  });

  it('recovers a SAFE signature given as plain EIP-712 (v 27/28) too', async () => {
    const sig = await account.signTypedData({ domain: { chainId: 137, verifyingContract: SAFE }, types: { SafeTx: [
      { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'data', type: 'bytes' }, { name: 'operation', type: 'uint8' },
      { name: 'safeTxGas', type: 'uint256' }, { name: 'baseGas', type: 'uint256' }, { name: 'gasPrice', type: 'uint256' },
      { name: 'gasToken', type: 'address' }, { name: 'refundReceiver', type: 'address' }, { name: 'nonce', type: 'uint256' },
    ] }, primaryType: 'SafeTx', message: safeTx });
    assert.ok([27, 28].includes(splitSignature(sig).v));
    assert.equal(await recoverSafeSigner(safeTxHash(137, SAFE, safeTx), sig), account.address);
  });

  it('rejects a SAFE signature whose v is not 27, 28, 31 or 32', async () => {
    const bad = `0x${'11'.repeat(64)}01` as const;
    await assert.rejects(recoverSafeSigner(safeTxHash(137, SAFE, safeTx), bad), /v must be 27, 28, 31 or 32/);
  });

  it('signs the SAFE-CREATE vector under the public factory domain', async () => {
    const message = { paymentToken: ZERO_ADDRESS, payment: 0n, paymentReceiver: ZERO_ADDRESS };
    const factory: Address = '0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b';
    const sig = await account.signTypedData(createProxyTypedData(137, factory, message, 'Polymarket Contract Proxy Factory'));
    assert.equal(
      sig,
      '0xe3e791c24134b7bebe93b4771bd07c7fe7bbe115eeb0bf629ac3b7a435e7ac8d05f979729d873f7d0e16205becf48ee450aa382bc28c65eedcd6454e81d81f921b',
    );
    assert.equal(await recoverCreateProxySigner(137, factory, message, sig, 'Polymarket Contract Proxy Factory'), account.address);
    // Without a name, the Polygon factory's domain is the public one, and any other factory's the local one.
    assert.equal(createProxyHash(137, factory, message), createProxyHash(137, factory, message, 'Polymarket Contract Proxy Factory'));
    const local: Address = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
    assert.equal(createProxyHash(137, local, message), createProxyHash(137, local, message, 'Service Contract Proxy Factory'));
    assert.notEqual(createProxyHash(137, local, message), createProxyHash(137, local, message, 'Polymarket Contract Proxy Factory'));
  });

  it('hashes and signs the PROXY vector as the rlx: relayed call', async () => {
    assert.equal(relay.encodedFunction.slice(0, 10), '0x34ee9791');
    assert.equal(rlxHash(relay), '0xeebbc25c502ac6eb1318ef486214e9fdf91d79d7c3b3d325144d54479ec07f96');
    const sig = await account.signMessage({ message: { raw: rlxHash(relay) } });
    assert.equal(
      sig,
      '0x4c18e2d2294a00d686714aff8e7936ab657cb4655dfccb2b556efadcb7e835f800dc2fecec69c501e29bb36ecb54b4da6b7c410c4dc740a33af2afde2b77297e1b',
    );
    assert.equal(await recoverRelaySigner(relay, sig), account.address);
    assert.notEqual(await recoverRelaySigner({ ...relay, gasLimit: 85339n }, sig), account.address);
  });

  it('encodes a MultiSend batch with the multiSend selector and packed entries', () => {
    const data = encodeMultiSend([
      { operation: 0, to: USDCE, value: 0n, data: APPROVE_DATA },
      { operation: 0, to: USDCE, value: 1n, data: '0x' },
    ]);
    assert.equal(data.slice(0, 10), '0x8d80ff0a');
    assert.ok(data.includes(USDCE.slice(2).toLowerCase()));
  });

  it('refuses signatures that are not 65 bytes', () => {
    assert.throws(() => splitSignature('0x1234'), /65 bytes/);
  });
});
