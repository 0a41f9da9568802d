/**
 * Creation bytecode of every contract the engine deploys: the project's own contracts from
 * resources/contracts/build (compiled on demand when missing or stale), the rest as shipped on npm.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { compileContracts, contractsBuildDir, contractsUpToDate } from './compileContracts.js';

export interface ContractArtifact {
  contractName: string;
  abi: readonly unknown[];
  bytecode: Hex;
}

/** The project's own contracts (resources/contracts/*.sol). */
export const LOCAL_CONTRACTS = ['SandboxUSD', 'SafeProxyFactory', 'RelayHub', 'ProxyWallet', 'ProxyWalletFactory'] as const;
export type LocalContractName = (typeof LOCAL_CONTRACTS)[number];

/** npm packages' artifacts, used as shipped (relayer-api.md §7, §9). */
const NPM_ARTIFACTS = {
  ConditionalTokens: '@gnosis.pm/conditional-tokens-contracts/build/contracts/ConditionalTokens.json',
  GnosisSafeL2: '@gnosis.pm/safe-contracts/build/artifacts/contracts/GnosisSafeL2.sol/GnosisSafeL2.json',
  CompatibilityFallbackHandler:
    '@gnosis.pm/safe-contracts/build/artifacts/contracts/handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
  MultiSend: '@gnosis.pm/safe-contracts/build/artifacts/contracts/libraries/MultiSend.sol/MultiSend.json',
  GnosisSafeProxy: '@gnosis.pm/safe-contracts/build/artifacts/contracts/proxies/GnosisSafeProxy.sol/GnosisSafeProxy.json',
} as const;
export type NpmContractName = keyof typeof NPM_ARTIFACTS;

const cache = new Map<string, ContractArtifact>();
const require = createRequire(import.meta.url);

function parseArtifact(path: string, name: string): ContractArtifact {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { abi: unknown[]; bytecode: string };
  const bytecode = (raw.bytecode.startsWith('0x') ? raw.bytecode : `0x${raw.bytecode}`) as Hex;
  if (bytecode.length <= 2) throw new Error(`artifact ${path} has no bytecode`);
  return { contractName: name, abi: raw.abi, bytecode };
}

/** Compiles the project's contracts if their build is missing or stale (cheap when up to date). */
export function ensureContractsBuilt(): void {
  if (contractsUpToDate()) return;
  compileContracts();
  for (const name of LOCAL_CONTRACTS) cache.delete(name);
}

export function localArtifact(name: LocalContractName): ContractArtifact {
  const hit = cache.get(name);
  if (hit) return hit;
  const path = join(contractsBuildDir(), `${name}.json`);
  if (!existsSync(path)) ensureContractsBuilt();
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build:contracts\``);
  const a = parseArtifact(path, name);
  cache.set(name, a);
  return a;
}

export function npmArtifact(name: NpmContractName): ContractArtifact {
  const hit = cache.get(name);
  if (hit) return hit;
  const a = parseArtifact(require.resolve(NPM_ARTIFACTS[name]), name);
  cache.set(name, a);
  return a;
}
