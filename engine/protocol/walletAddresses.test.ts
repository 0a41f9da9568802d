import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { concat, encodeAbiParameters, getContractAddress, keccak256, recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deriveProxyWalletAddress, deriveSafeAddress, GNOSIS_SAFE_PROXY_CREATION_CODE, proxyWalletInitCode } from './walletAddresses.js';

// relayer-api.md §6: the public client's test key and the Polygon factories.
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const POLYGON_PROXY_FACTORY = '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052';
const POLYGON_PROXY_IMPLEMENTATION = '0x44e999d5c2F66Ef0861317f9A4805AC2e90aEB4f';
const POLYGON_SAFE_FACTORY = '0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b';

describe('wallet address derivation', () => {
  it('inlines exactly the GnosisSafeProxy creation code of @gnosis.pm/safe-contracts 1.3.0', () => {
    const artifact = createRequire(import.meta.url)(
      '@gnosis.pm/safe-contracts/build/artifacts/contracts/proxies/GnosisSafeProxy.sol/GnosisSafeProxy.json',
    ) as { bytecode: string };
    assert.equal(GNOSIS_SAFE_PROXY_CREATION_CODE, artifact.bytecode);
  });

  it('derives the public proxy wallet of the §6 vector key from the Polygon factory and implementation', () => {
    const wallet = deriveProxyWalletAddress(OWNER, { proxyFactory: POLYGON_PROXY_FACTORY, proxyWalletImplementation: POLYGON_PROXY_IMPLEMENTATION });
    assert.equal(wallet, '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70');
  });

  it('builds the clone init code whose hash is the public client’s PROXY_INIT_CODE_HASH', () => {
    assert.equal(
      keccak256(proxyWalletInitCode(POLYGON_PROXY_FACTORY, POLYGON_PROXY_IMPLEMENTATION)),
      '0xd21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b',
    );
  });

  it('derives a Safe with a 32-byte abi.encode(owner) salt over proxy creation code ‖ singleton', () => {
    const contracts = { safeFactory: POLYGON_SAFE_FACTORY, safeSingleton: '0xE51abdf814f8854941b9Fe8e3A4F65CAB4e7A4a8' } as const;
    const expected = getContractAddress({
      opcode: 'CREATE2',
      from: contracts.safeFactory,
      salt: keccak256(`0x${'0'.repeat(24)}${OWNER.slice(2).toLowerCase()}`),
      bytecodeHash: keccak256(concat([GNOSIS_SAFE_PROXY_CREATION_CODE, encodeAbiParameters([{ type: 'address' }], [contracts.safeSingleton])])),
    });
    assert.equal(deriveSafeAddress(OWNER, contracts), expected);
    // The local factory uses the npm proxy code, so the Safe differs from the public service's for the same owner.
    assert.notEqual(deriveSafeAddress(OWNER, contracts), '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47');
  });

  it('reproduces the public SAFE-CREATE signature of relayer-api.md §6 under the Polymarket factory domain', async () => {
    const account = privateKeyToAccount(KEY);
    const typedData = {
      domain: { name: 'Polymarket Contract Proxy Factory', chainId: 137, verifyingContract: POLYGON_SAFE_FACTORY },
      types: {
        CreateProxy: [
          { name: 'paymentToken', type: 'address' },
          { name: 'payment', type: 'uint256' },
          { name: 'paymentReceiver', type: 'address' },
        ],
      },
      primaryType: 'CreateProxy',
      message: { paymentToken: '0x0000000000000000000000000000000000000000', payment: 0n, paymentReceiver: '0x0000000000000000000000000000000000000000' },
    } as const;
    const signature = await account.signTypedData(typedData);
    assert.equal(
      signature,
      '0xe3e791c24134b7bebe93b4771bd07c7fe7bbe115eeb0bf629ac3b7a435e7ac8d05f979729d873f7d0e16205becf48ee450aa382bc28c65eedcd6454e81d81f921b',
    );
    assert.equal(await recoverTypedDataAddress({ ...typedData, signature }), OWNER);
  });

  it('reproduces the public PROXY rlx: hash and EIP-191 signature of relayer-api.md §6', async () => {
    const { encodeFunctionData, encodePacked } = await import('viem');
    const encodedFunction = encodeFunctionData({
      abi: [
        {
          type: 'function',
          name: 'proxy',
          stateMutability: 'payable',
          inputs: [
            {
              name: 'calls',
              type: 'tuple[]',
              components: [
                { name: 'typeCode', type: 'uint8' },
                { name: 'to', type: 'address' },
                { name: 'value', type: 'uint256' },
                { name: 'data', type: 'bytes' },
              ],
            },
          ],
          outputs: [],
        },
      ],
      functionName: 'proxy',
      args: [
        [
          {
            typeCode: 1,
            to: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
            value: 0n,
            data: '0x095ea7b30000000000000000000000004d97dcd97ec945f40cf65f87097ace5ea0476045ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
          },
        ],
      ],
    });
    assert.equal(encodedFunction.slice(0, 10), '0x34ee9791');
    const rlx = keccak256(
      encodePacked(
        ['string', 'address', 'address', 'bytes', 'uint256', 'uint256', 'uint256', 'uint256', 'address', 'address'],
        [
          'rlx:',
          OWNER,
          POLYGON_PROXY_FACTORY,
          encodedFunction,
          0n,
          0n,
          85338n,
          0n,
          '0xD216153c06E857cD7f72665E0aF1d7D82172F494',
          '0xae700edfd9ab986395f3999fe11177b9903a52f1',
        ],
      ),
    );
    assert.equal(rlx, '0xeebbc25c502ac6eb1318ef486214e9fdf91d79d7c3b3d325144d54479ec07f96');
    assert.equal(
      await privateKeyToAccount(KEY).signMessage({ message: { raw: rlx } }),
      '0x4c18e2d2294a00d686714aff8e7936ab657cb4655dfccb2b556efadcb7e835f800dc2fecec69c501e29bb36ecb54b4da6b7c410c4dc740a33af2afde2b77297e1b',
    );
  });
});
