import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The stock Python clients' dependencies beside their wheels (../shared/python-wheels/README.md). */
export const PYTHON_DEPENDENCIES = ['eth-utils', 'eth-typing', 'eth-hash[pycryptodome]', 'pycryptodome', 'ckzg', 'bitarray', 'pydantic', 'httpx[http2]', 'python-dotenv', 'requests', 'regex', 'cytoolz', 'typing-extensions'];
/** Installed from the package index where no wheels directory is found. */
export const PYTHON_CLIENTS = ['py-clob-client', 'py-clob-client-v2', 'py-builder-relayer-client'];
const IMPORT_CHECK = 'import py_clob_client.client, py_clob_client_v2, py_builder_relayer_client.client, eth_abi, eth_utils';

export type PythonVenv = { python: string; wheels: string | null } | { skip: string };

/** python3 on PATH, or undefined. */
export function findPython3(): string | undefined {
  const r = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? 'python3' : undefined;
}

/** `shared/python-wheels` beside the repository or an ancestor (PYTHON_WHEELS overrides), or null. */
export function findWheels(root: string): string | null {
  if (process.env.PYTHON_WHEELS) return process.env.PYTHON_WHEELS;
  for (let dir = root; ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'shared', 'python-wheels'), join(dir, '..', 'shared', 'python-wheels')]) {
      if (existsSync(candidate) && readdirSync(candidate).some((f) => f.endsWith('.whl'))) return candidate;
    }
    if (dirname(dir) === dir) return null;
  }
}

function run(cmd: string, args: string[], log: string[]): boolean {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 600_000 });
  log.push(`$ ${cmd} ${args.join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r.status === 0;
}

/**
 * A virtualenv with the three stock Python clients, built once under `<root>/.tmp/pyenv` (gitignored) and
 * reused while the wheels and dependency list are unchanged. Wheels come from ../shared/python-wheels with
 * `--no-deps` and the dependencies from the configured index; with no wheels directory, the clients come
 * from the index. Throws naming what is missing when the clients cannot be imported afterwards.
 */
export function ensurePythonVenv(root: string): PythonVenv {
  const python3 = findPython3();
  if (!python3) return { skip: 'python3 is not installed: the stock Python client flows are skipped' };
  const dir = join(root, '.tmp', 'pyenv');
  const python = join(dir, 'bin', 'python');
  const wheels = findWheels(root);
  const wheelFiles = wheels ? readdirSync(wheels).filter((f) => f.endsWith('.whl')).sort() : [];
  const stampFile = join(dir, 'stamp.json');
  const stamp = JSON.stringify({ wheels: wheelFiles, deps: wheels ? PYTHON_DEPENDENCIES : PYTHON_CLIENTS });
  const imports = () => spawnSync(python, ['-c', IMPORT_CHECK], { encoding: 'utf8' });
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && imports().status === 0) return { python, wheels };

  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  const log: string[] = [];
  if (!run(python3, ['-m', 'venv', dir], log)) throw new Error(`python3 -m venv failed:\n${log.join('\n')}`);
  // Bounded retries: an unreachable index fails in seconds, not minutes.
  const pip = [python, '-m', 'pip', 'install', '--disable-pip-version-check', '-q', '--retries', '1', '--timeout', '15'];
  if (wheels) {
    run(pip[0]!, [...pip.slice(1), '--no-deps', ...wheelFiles.map((f) => join(wheels, f))], log);
    // Where no index is reachable this fails; the import check below then names the missing modules.
    run(pip[0]!, [...pip.slice(1), ...PYTHON_DEPENDENCIES], log);
  } else {
    run(pip[0]!, [...pip.slice(1), ...PYTHON_CLIENTS], log);
  }
  const check = imports();
  if (check.status !== 0) {
    throw new Error(
      `The stock Python clients cannot be imported from ${dir} (${check.stderr.trim().split('\n').pop()}). ` +
        `Wheels: ${wheels ?? 'none found (set PYTHON_WHEELS)'}; dependencies need a reachable package index: ${PYTHON_DEPENDENCIES.join(' ')}.\n${log.join('\n')}`,
    );
  }
  writeFileSync(stampFile, stamp);
  return { python, wheels };
}
