import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { concat, encodeAbiParameters, getContractAddress, keccak256 } from 'viem';
import { deriveProxyWalletAddress, deriveSafeAddress, GNOSIS_SAFE_PROXY_CREATION_CODE, proxyWalletInitCode } from './walletAddresses.js';

// relayer-api.md §6: the public client's test owner and the Polygon factories (the §6 signature vectors are in relayerSigning.test.ts).
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
});
