/**
 * Deterministic user wallet addresses (relayer-api.md §5.2 and §8.2), as pure functions usable in Node and
 * the browser: the Safe the local SafeProxyFactory creates for an owner, and the proxy wallet the local
 * ProxyWalletFactory creates for an owner.
 */
import { POLYGON_WALLET_CONTRACTS } from './contractAddresses.js';
import { concat, encodeAbiParameters, encodeFunctionData, encodePacked, getContractAddress, keccak256, type Address, type Hex } from 'viem';

/**
 * GnosisSafeProxy creation code from @gnosis.pm/safe-contracts@1.3.0
 * (build/artifacts/contracts/proxies/GnosisSafeProxy.sol/GnosisSafeProxy.json `bytecode`), inlined so the
 * browser needs no npm artifact; a test checks it against the package.
 */
export const GNOSIS_SAFE_PROXY_CREATION_CODE: Hex =
  '0x608060405234801561001057600080fd5b506040516101e63803806101e68339818101604052602081101561003357600080fd5b8101908080519060200190929190505050600073ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff1614156100ca576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260228152602001806101c46022913960400191505060405180910390fd5b806000806101000a81548173ffffffffffffffffffffffffffffffffffffffff021916908373ffffffffffffffffffffffffffffffffffffffff1602179055505060ab806101196000396000f3fe608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fea2646970667358221220d1429297349653a4918076d650332de1a1068c5f3e07c5c82360c277770b955264736f6c63430007060033496e76616c69642073696e676c65746f6e20616464726573732070726f7669646564';

/**
 * The GnosisSafeProxy creation code of Polymarket's Polygon SafeProxyFactory (0xaacF…541b,
 * `proxyCreationCode()`): @gnosis.pm/safe-contracts@1.3.0 contracts/proxies/GnosisSafeProxy.sol compiled by
 * solc 0.8.4, optimizer 200 runs (the proxy-factories safe-factory build). The same bytes are published in
 * Polymarket's ctf-exchange (src/exchange/libraries/PolySafeLib.sol). Compiling the npm source with solc-js
 * 0.8.4 yields these bytes except the 34-byte metadata IPFS hash at the end, which depends on the original
 * build's environment; the published bytes are used as they are, since the Safe address is their hash.
 * keccak256(this ‖ abi.encode(POLYGON_WALLET_CONTRACTS.safeSingleton)) is the client's SAFE_INIT_CODE_HASH
 * (walletAddresses.test.ts).
 */
export const POLYMARKET_SAFE_PROXY_CREATION_CODE: Hex =
  '0x608060405234801561001057600080fd5b5060405161017138038061017183398101604081905261002f916100b9565b6001600160a01b0381166100945760405162461bcd60e51b815260206004820152602260248201527f496e76616c69642073696e676c65746f6e20616464726573732070726f766964604482015261195960f21b606482015260840160405180910390fd5b600080546001600160a01b0319166001600160a01b03929092169190911790556100e7565b6000602082840312156100ca578081fd5b81516001600160a01b03811681146100e0578182fd5b9392505050565b607c806100f56000396000f3fe6080604052600080546001600160a01b0316813563530ca43760e11b1415602857808252602082f35b3682833781823684845af490503d82833e806041573d82fd5b503d81f3fea264697066735822122015938e3bf2c49f5df5c1b7f9569fa85cc5d6f3074bb258a2dc0c7e299bc9e33664736f6c63430008040033';

/** The creation code the Safe factory at this address holds: the Polygon one's, or the npm artifact's (local factory). */
export function safeProxyCreationCodeOf(safeFactory: Address): Hex {
  return safeFactory.toLowerCase() === POLYGON_WALLET_CONTRACTS.safeFactory.toLowerCase() ? POLYMARKET_SAFE_PROXY_CREATION_CODE : GNOSIS_SAFE_PROXY_CREATION_CODE;
}

/** Safe address: CREATE2(factory, keccak256(abi.encode(owner)), keccak256(proxyCreationCode ‖ abi.encode(singleton))). */
export function deriveSafeAddress(
  owner: Address,
  contracts: { safeFactory: Address; safeSingleton: Address },
  proxyCreationCode: Hex = safeProxyCreationCodeOf(contracts.safeFactory),
): Address {
  const salt = keccak256(encodeAbiParameters([{ type: 'address' }], [owner]));
  const initCode = concat([proxyCreationCode, encodeAbiParameters([{ type: 'address' }], [contracts.safeSingleton])]);
  return getContractAddress({ opcode: 'CREATE2', from: contracts.safeFactory, salt, bytecodeHash: keccak256(initCode) });
}

const CLONE_CONSTRUCTOR_CALL = encodeFunctionData({
  abi: [{ type: 'function', name: 'cloneConstructor', stateMutability: 'nonpayable', inputs: [{ name: '', type: 'bytes' }], outputs: [] }],
  functionName: 'cloneConstructor',
  args: ['0x'],
});

/** The clone-with-constructor init code of a proxy wallet (proxy-factories FactoryLib layout). */
export function proxyWalletInitCode(factory: Address, implementation: Address): Hex {
  return concat([
    '0x3d3d606380380380913d393d73',
    factory,
    '0x5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73',
    implementation,
    '0x5af43d82803e903d91602b57fd5bf3',
    CLONE_CONSTRUCTOR_CALL,
  ]);
}

/** Proxy wallet address: CREATE2(factory, keccak256(abi.encodePacked(owner)), keccak256(initCode)). */
export function deriveProxyWalletAddress(owner: Address, contracts: { proxyFactory: Address; proxyWalletImplementation: Address }): Address {
  const salt = keccak256(encodePacked(['address'], [owner]));
  const initCode = proxyWalletInitCode(contracts.proxyFactory, contracts.proxyWalletImplementation);
  return getContractAddress({ opcode: 'CREATE2', from: contracts.proxyFactory, salt, bytecodeHash: keccak256(initCode) });
}
