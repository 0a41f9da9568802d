import { createConfig, http, injected } from 'wagmi';
import { defineChain } from 'viem';
import type { ExchangeConfig } from '../api/types.js';

/** The local chain of this exchange as GET /config describes it. */
export function localChain(cfg: Pick<ExchangeConfig, 'chainId' | 'rpcUrl'>) {
  const rpc = cfg.rpcUrl ?? 'http://127.0.0.1:8545';
  return defineChain({
    id: cfg.chainId,
    name: `Sandbox local (${cfg.chainId})`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
    testnet: true,
  });
}

export function hasInjectedProvider(): boolean {
  return typeof window !== 'undefined' && typeof (window as { ethereum?: unknown }).ethereum !== 'undefined';
}

export function createWagmiConfig(cfg: Pick<ExchangeConfig, 'chainId' | 'rpcUrl'>) {
  const chain = localChain(cfg);
  return createConfig({
    chains: [chain],
    connectors: hasInjectedProvider() ? [injected()] : [],
    transports: { [chain.id]: http(cfg.rpcUrl ?? undefined) },
    multiInjectedProviderDiscovery: false,
  });
}
