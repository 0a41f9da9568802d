import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { concat, encodeAbiParameters, getContractAddress, keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PROXY_INIT_CODE_HASH, SAFE_INIT_CODE_HASH } from '@polymarket/builder-relayer-client/dist/constants/index.js';
import { deriveProxyWallet, deriveSafe } from '@polymarket/builder-relayer-client/dist/builder/derive.js';
import { POLYGON_WALLET_CONTRACTS } from './contractAddresses.js';
import {
  deriveProxyWalletAddress,
  deriveSafeAddress,
  GNOSIS_SAFE_PROXY_CREATION_CODE,
  POLYMARKET_SAFE_PROXY_CREATION_CODE,
  proxyWalletInitCode,
  safeProxyCreationCodeOf,
} from './walletAddresses.js';

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

  it('derives a local-factory Safe with a 32-byte abi.encode(owner) salt over the npm proxy creation code ‖ singleton', () => {
    const contracts = { safeFactory: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707', safeSingleton: '0xE51abdf814f8854941b9Fe8e3A4F65CAB4e7A4a8' } as const;
    const expected = getContractAddress({
      opcode: 'CREATE2',
      from: contracts.safeFactory,
      salt: keccak256(`0x${'0'.repeat(24)}${OWNER.slice(2).toLowerCase()}`),
      bytecodeHash: keccak256(concat([GNOSIS_SAFE_PROXY_CREATION_CODE, encodeAbiParameters([{ type: 'address' }], [contracts.safeSingleton])])),
    });
    assert.equal(deriveSafeAddress(OWNER, contracts), expected);
    assert.equal(safeProxyCreationCodeOf(contracts.safeFactory), GNOSIS_SAFE_PROXY_CREATION_CODE);
  });

  it('the Polygon factory\'s proxy creation code ‖ abi.encode(singleton) hashes to the stock client\'s SAFE_INIT_CODE_HASH', () => {
    const initCode = concat([POLYMARKET_SAFE_PROXY_CREATION_CODE, encodeAbiParameters([{ type: 'address' }], [POLYGON_WALLET_CONTRACTS.safeSingleton])]);
    assert.equal(keccak256(initCode), SAFE_INIT_CODE_HASH);
    assert.equal(keccak256(proxyWalletInitCode(POLYGON_WALLET_CONTRACTS.proxyFactory, POLYGON_WALLET_CONTRACTS.proxyWalletImplementation)), PROXY_INIT_CODE_HASH);
    assert.equal(safeProxyCreationCodeOf(POLYGON_SAFE_FACTORY), POLYMARKET_SAFE_PROXY_CREATION_CODE);
  });

  it('derives the public Safe of the §6 vector key and the same Safe and proxy wallet as the stock client for any owner', () => {
    const polygon = { safeFactory: POLYGON_WALLET_CONTRACTS.safeFactory, safeSingleton: POLYGON_WALLET_CONTRACTS.safeSingleton };
    assert.equal(deriveSafeAddress(OWNER, polygon), '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47');
    for (let i = 0; i < 5; i++) {
      const owner = privateKeyToAccount(generatePrivateKey()).address;
      assert.equal(deriveSafeAddress(owner, polygon), deriveSafe(owner, POLYGON_SAFE_FACTORY));
      assert.equal(deriveProxyWalletAddress(owner, POLYGON_WALLET_CONTRACTS), deriveProxyWallet(owner, POLYGON_PROXY_FACTORY));
    }
  });
});
