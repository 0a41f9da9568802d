/**
 * Where the exchange's contracts live, as a pure function of the operator address: every contract is
 * created by the operator account in one fixed order on a fresh chain, so its address is
 * CREATE(operator, nonce) and is known before (or without) any chain. Condition and token ids are derived
 * from these addresses, so they never change when a chain arrives later.
 */
import { getAddress, getContractAddress, keccak256, slice, toHex, type Address } from 'viem';

/** Every contract the engine deploys, in deployment order (index = operator nonce). */
export const DEPLOYMENT_ORDER = [
  'collateral',
  'conditionalTokens',
  'safeSingleton',
  'fallbackHandler',
  'multiSend',
  'safeFactory',
  'relayHub',
  'proxyWalletImplementation',
  'proxyFactory',
] as const;

export type DeployedContractName = (typeof DEPLOYMENT_ORDER)[number];

/** Addresses of everything the engine deploys (a superset of GET /config `contracts`). */
export type DeploymentAddresses = Record<DeployedContractName, Address>;

/**
 * Order-signing verifyingContracts of the default profile. No settlement contract is deployed (trades
 * settle in the engine), so these are fixed local addresses nobody holds a key or code for:
 * the last 20 bytes of keccak256("sandbox-exchange:exchange") and keccak256("sandbox-exchange:neg-risk-exchange").
 * A signature made for the local exchange is therefore never valid on a public one (decisions §6).
 */
export const LOCAL_EXCHANGE_ADDRESS: Address = '0xC118b7b9457C06056386fCd55bA30f214F2Bf78A';
export const LOCAL_NEG_RISK_EXCHANGE_ADDRESS: Address = '0x6BB98E7B22CF4c54A8Db6BdE8151F9c6B3595B26';
/** V2 order-signing verifyingContracts of the default profile: keccak256("sandbox-exchange:exchange-v2") and "…:neg-risk-exchange-v2", same rule. */
export const LOCAL_EXCHANGE_V2_ADDRESS: Address = '0x4562b1BA43D43112AA9254B15CcC22E516173D5A';
export const LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS: Address = '0x564E5286c03f1E2bCA144dD0acFB7FA332E67817';

/** The public Polygon (137) order-signing contracts (trading-api.md §5.2): polymarket profile only. */
export const POLYGON_EXCHANGE_ADDRESS: Address = '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E';
export const POLYGON_NEG_RISK_EXCHANGE_ADDRESS: Address = '0xC5d563A36AE78145C45a50134d48A1215220f80a';
/** The public V2 order-signing contracts (trading-api.md §12; clob-client-v2's MATIC_CONTRACTS exchangeV2 / negRiskExchangeV2). */
export const POLYGON_EXCHANGE_V2_ADDRESS: Address = '0xE111180000d2663C0091e4f400237545B87B996B';
export const POLYGON_NEG_RISK_EXCHANGE_V2_ADDRESS: Address = '0xe2222d279d744050d28e00520010520000310F59';

/** The label-hash rule behind the LOCAL_* constants (kept so a test can prove them). */
export function localSigningAddress(label: string): Address {
  return getAddress(slice(keccak256(toHex(label)), 12));
}

/**
 * The wallet contracts' public Polygon addresses, hard-coded in @polymarket/builder-relayer-client 0.0.10
 * (config: SafeFactory, SafeMultisend, ProxyFactory, RelayHub) together with its init-code hashes, which
 * fix the other two: the Safe singleton is the constructor argument behind SAFE_INIT_CODE_HASH and the proxy
 * wallet implementation is the clone target behind PROXY_INIT_CODE_HASH (walletAddresses.test.ts proves both).
 * In the polymarket profile the engine places its wallet contracts here, so the stock client's derived
 * Safe and proxy-wallet addresses are the ones the local chain creates.
 */
export const POLYGON_WALLET_CONTRACTS = {
  safeSingleton: '0xE51abdf814f8854941b9Fe8e3A4F65CAB4e7A4a8',
  multiSend: '0xA238CBeb142c10Ef7Ad8442C6D1f9E89e07e7761',
  safeFactory: '0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b',
  relayHub: '0xD216153c06E857cD7f72665E0aF1d7D82172F494',
  proxyWalletImplementation: '0x44e999d5c2F66Ef0861317f9A4805AC2e90aEB4f',
  proxyFactory: '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052',
} as const satisfies Partial<Record<DeployedContractName, Address>>;

/** EIP-712 domain name of the Safe proxy factory's CreateProxy signatures (decisions §6). */
export function safeFactoryDomainName(profile: 'default' | 'polymarket'): string {
  return profile === 'polymarket' ? 'Polymarket Contract Proxy Factory' : 'Service Contract Proxy Factory';
}

/**
 * Where each contract runs: the operator's CREATE address (predictContractAddresses), except, in the
 * polymarket profile, the wallet contracts at their public Polygon addresses (POLYGON_WALLET_CONTRACTS).
 */
export function deploymentAddresses(operator: Address, profile: 'default' | 'polymarket'): DeploymentAddresses {
  const created = predictContractAddresses(operator);
  return profile === 'polymarket' ? { ...created, ...POLYGON_WALLET_CONTRACTS } : created;
}

export function predictContractAddresses(operator: Address): DeploymentAddresses {
  const out = {} as DeploymentAddresses;
  DEPLOYMENT_ORDER.forEach((name, nonce) => {
    out[name] = getContractAddress({ from: operator, nonce: BigInt(nonce) });
  });
  return out;
}

/** The order-signing verifyingContracts of a profile: V1 (exchange, negRiskExchange) and V2 (…V2). */
export interface ExchangeAddresses {
  exchange: Address;
  negRiskExchange: Address;
  exchangeV2: Address;
  negRiskExchangeV2: Address;
}

export function exchangeAddresses(profile: 'default' | 'polymarket'): ExchangeAddresses {
  return profile === 'polymarket'
    ? { exchange: POLYGON_EXCHANGE_ADDRESS, negRiskExchange: POLYGON_NEG_RISK_EXCHANGE_ADDRESS, exchangeV2: POLYGON_EXCHANGE_V2_ADDRESS, negRiskExchangeV2: POLYGON_NEG_RISK_EXCHANGE_V2_ADDRESS }
    : { exchange: LOCAL_EXCHANGE_ADDRESS, negRiskExchange: LOCAL_NEG_RISK_EXCHANGE_ADDRESS, exchangeV2: LOCAL_EXCHANGE_V2_ADDRESS, negRiskExchangeV2: LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS };
}
