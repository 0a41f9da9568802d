import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toEventSelector, toFunctionSelector, type AbiEvent, type AbiFunction } from 'viem';
import { compileContracts, contractsBuildDir, contractsUpToDate } from './compileContracts.js';

type Abi = (AbiFunction | AbiEvent | { type: string })[];

function abiOf(name: string): Abi {
  return (JSON.parse(readFileSync(join(contractsBuildDir(), `${name}.json`), 'utf8')) as { abi: Abi }).abi;
}
function selectors(name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const x of abiOf(name)) {
    if (x.type === 'function') out[(x as AbiFunction).name] = toFunctionSelector(x as AbiFunction);
    if (x.type === 'event') out[`event ${(x as AbiEvent).name}`] = toEventSelector(x as AbiEvent);
  }
  return out;
}

describe('contract build', () => {
  it('skips recompiling when the sources match the build stamp', () => {
    compileContracts();
    assert.equal(contractsUpToDate(), true);
    const again = compileContracts();
    assert.equal(again.compiled, false);
    for (const name of ['SandboxUSD', 'SafeProxyFactory', 'RelayHub', 'ProxyWallet', 'ProxyWalletFactory']) assert.ok(again.contracts.includes(name), name);
  });

  it('gives the Safe proxy factory the public selectors and ProxyCreation topic', () => {
    const s = selectors('SafeProxyFactory');
    assert.equal(s.createProxy, '0xa1884d2c');
    assert.equal(s.computeProxyAddress, '0xd600539a');
    assert.equal(s['event ProxyCreation'], '0x4f51faf6c4561ff95f067657e43439f0f856d97c04d9ec9070a6199ad418e235');
  });

  it('gives the RelayHub the GSN v1 selectors and event topics', () => {
    const s = selectors('RelayHub');
    assert.equal(s.relayCall, '0x405cec67');
    assert.equal(s.getNonce, '0x2d0335ab');
    assert.equal(s.canRelay, '0x2b601747');
    assert.equal(s.recipientCallsAtomic, '0x2ca70eba');
    assert.equal(s['event TransactionRelayed'], '0xab74390d395916d9e0006298d47938a5def5d367054dcca78fa6ec84381f3f22');
    assert.equal(s['event CanRelayFailed'], '0xafb5afd6d1c2e8ffbfb480e674a169f493ece0b22658d4f4484e7334f0241e22');
  });

  it('gives the proxy wallet factory the public proxy() and cloneConstructor selectors', () => {
    const s = selectors('ProxyWalletFactory');
    assert.equal(s.proxy, '0x34ee9791');
    assert.equal(s.cloneConstructor, '0x52e831dd');
  });
});
