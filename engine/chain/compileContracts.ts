/**
 * Compiles the Solidity the project writes (resources/contracts/*.sol) with solc-js from npm into
 * resources/contracts/build/<Name>.json ({contractName, abi, bytecode, deployedBytecode}). A hash stamp of
 * compiler version, settings and sources makes a second run free, so it can run before every test or start.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SOLC_VERSION = '0.8.26';

/** Where the sources live and where the build goes (overridable for packaged builds). */
export function contractsDir(): string {
  return process.env.SANDBOX_CONTRACTS_DIR ?? fileURLToPath(new URL('../../resources/contracts/', import.meta.url));
}

export function contractsBuildDir(): string {
  return join(contractsDir(), 'build');
}

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

const STAMP_FILE = '.stamp';

export interface CompileResult {
  /** false when the stamp matched and nothing was compiled. */
  compiled: boolean;
  contracts: string[];
  ms: number;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

interface Solc {
  version(): string;
  compile(input: string): string;
}

function readSources(dir: string): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.sol')).sort()) {
    sources[name] = readFileSync(join(dir, name), 'utf8');
  }
  return sources;
}

function stampOf(sources: Record<string, string>): string {
  const h = createHash('sha256');
  h.update(`solc ${SOLC_VERSION}\n${JSON.stringify(SETTINGS)}\n`);
  for (const [name, text] of Object.entries(sources)) h.update(`${name}\n${text.length}\n${text}`);
  return h.digest('hex');
}

/** True when the build directory holds the output of exactly the current sources. */
export function contractsUpToDate(dir = contractsDir()): boolean {
  const stampPath = join(dir, 'build', STAMP_FILE);
  if (!existsSync(stampPath)) return false;
  const sources = readSources(dir);
  // A packaged app may ship the build without the sources: trust the build then.
  if (Object.keys(sources).length === 0) return true;
  return readFileSync(stampPath, 'utf8').trim() === stampOf(sources);
}

export function compileContracts(opts: { force?: boolean; dir?: string } = {}): CompileResult {
  const started = performance.now();
  const dir = opts.dir ?? contractsDir();
  const buildDir = join(dir, 'build');
  const sources = readSources(dir);
  if (Object.keys(sources).length === 0) throw new Error(`no Solidity sources in ${dir}`);
  const stamp = stampOf(sources);
  const stampPath = join(buildDir, STAMP_FILE);
  if (!opts.force && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === stamp) {
    const names = readdirSync(buildDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    return { compiled: false, contracts: names, ms: performance.now() - started };
  }

  const solc = createRequire(import.meta.url)('solc') as Solc;
  if (!solc.version().startsWith(SOLC_VERSION)) throw new Error(`solc ${SOLC_VERSION} is required, found ${solc.version()}`);
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([k, content]) => [k, { content }])),
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);

  mkdirSync(buildDir, { recursive: true });
  const written: string[] = [];
  for (const [file, byName] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(byName)) {
      if (!c.evm.bytecode.object) continue; // interfaces and libraries without code
      const artifact = {
        contractName: name,
        sourceName: file,
        compiler: `solc ${solc.version()}`,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
      // Write-then-rename so a concurrent reader never sees half a file.
      const target = join(buildDir, `${name}.json`);
      writeFileSync(`${target}.${process.pid}.tmp`, JSON.stringify(artifact, null, 2));
      renameSync(`${target}.${process.pid}.tmp`, target);
      written.push(name);
    }
  }
  writeFileSync(`${stampPath}.${process.pid}.tmp`, stamp + '\n');
  renameSync(`${stampPath}.${process.pid}.tmp`, stampPath);
  return { compiled: true, contracts: written.sort(), ms: performance.now() - started };
}
