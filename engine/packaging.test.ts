import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { anvilBinaryPath } from './chain/anvilProcess.js';
import { cryptoNativePath } from './services/crypto/cryptoNative.js';
import { sqliteBinding } from './store/sqliteBinding.js';
import { unpackedPath } from './unpackedPath.js';

const { dirname, join, relative, sep } = path;
const root = fileURLToPath(new URL('..', import.meta.url));
const requireHere = createRequire(import.meta.url);
/** A path as the app holds it (`node_modules/…`, `dist/engine/…`), whether node_modules is a link or not. */
const nodeModules = realpathSync(join(root, 'node_modules'));
const inApp = (file: string) => {
  const real = existsSync(file) ? realpathSync(file) : file;
  const rel = real.startsWith(nodeModules + sep) ? join('node_modules', relative(nodeModules, real)) : relative(root, real);
  return rel.split(sep).join('/');
};

interface BuilderConfig {
  asar?: boolean;
  asarUnpack?: string[];
  electronFuses?: Record<string, boolean>;
}
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** electron-builder's glob semantics (minimatch); node's own glob where it has one. */
const matchesGlob: (file: string, glob: string) => boolean =
  (path as unknown as { matchesGlob?: (f: string, g: string) => boolean }).matchesGlob ??
  ((f, g) => (requireHere('minimatch') as (f: string, g: string, o: object) => boolean)(f, g, { dot: true }));
const unpacked = (file: string) => (config.asarUnpack ?? []).some((glob) => matchesGlob(file, glob));

function filesUnder(dir: string, suffix: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) filesUnder(p, suffix, out);
    else if (p.endsWith(suffix)) out.push(p);
  }
  return out;
}

/** The installed directories of the app's production dependencies and theirs: what electron-builder packs. */
function productionPackages(): string[] {
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    let pkgJson: string;
    try {
      pkgJson = createRequire(join(from, 'package.json')).resolve(`${name}/package.json`);
    } catch {
      return; // an optional dependency for another platform
    }
    const dir = dirname(pkgJson);
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
  };
  const app = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of Object.keys(app.dependencies)) visit(dep, root);
  return [...seen];
}

describe('the desktop package is an asar archive with its native files unpacked', () => {
  it('electron-builder.yml turns asar on and sets the asar fuses with the others', () => {
    assert.equal(config.asar, true);
    assert.ok((config.asarUnpack ?? []).length > 0, 'asarUnpack lists what must stay a real file');
    assert.deepEqual(
      {
        runAsNode: config.electronFuses?.runAsNode,
        enableNodeCliInspectArguments: config.electronFuses?.enableNodeCliInspectArguments,
        enableNodeOptionsEnvironmentVariable: config.electronFuses?.enableNodeOptionsEnvironmentVariable,
        enableEmbeddedAsarIntegrityValidation: config.electronFuses?.enableEmbeddedAsarIntegrityValidation,
        onlyLoadAppFromAsar: config.electronFuses?.onlyLoadAppFromAsar,
      },
      { runAsNode: false, enableNodeCliInspectArguments: false, enableNodeOptionsEnvironmentVariable: false, enableEmbeddedAsarIntegrityValidation: true, onlyLoadAppFromAsar: true },
    );
  });

  it('asarUnpack covers every native file the engine loads: addons of its dependencies, its own addon and anvil', () => {
    // The app's relative paths, as inside app.asar: node_modules as installed, the engine compiled to dist/.
    const natives = productionPackages().flatMap((dir) => filesUnder(dir, '.node')).map(inApp);
    assert.ok(natives.some((f) => f.endsWith('better_sqlite3.node')), `better-sqlite3's addon is among ${natives.join(', ')}`);
    natives.push(
      ...filesUnder(join(root, 'engine'), '.node').map((f) => `dist/${inApp(f)}`),
      `dist/${inApp(cryptoNativePath())}`,
      inApp(anvilBinaryPath()),
    );
    const packed = natives.filter((f) => !unpacked(f));
    assert.deepEqual(packed, [], 'native files that would stay inside app.asar');
    assert.equal(unpacked('dist/engine/engine.js'), false, 'the code itself stays in the archive');
  });

  describe('paths resolve into app.asar.unpacked in a packaged layout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packaged-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const asar = join(dir, 'resources', 'app.asar');
    const real = join(dir, 'resources', 'app.asar.unpacked');
    const file = (p: string) => {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, '');
      return p;
    };
    file(asar); // the archive is one file: nothing inside it exists for the OS
    const anvil = file(join(real, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil'));
    const sqlite = file(join(real, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
    const addon = file(join(real, 'dist', 'engine', 'services', 'crypto', 'native', 'cryptoNative.node'));

    it('anvil, the engine addon and better-sqlite3 resolve to the unpacked real files', () => {
      assert.equal(anvilBinaryPath(join(asar, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'package.json')), anvil);
      assert.equal(cryptoNativePath(pathToFileURL(join(asar, 'dist', 'engine', 'services', 'crypto', 'cryptoNative.js')).href), addon);
      assert.deepEqual(sqliteBinding(join(asar, 'node_modules', 'better-sqlite3', 'package.json')), { nativeBinding: sqlite });
    });

    it('a file that was not unpacked keeps its path in the archive (Electron reads it there)', () => {
      const inArchive = join(asar, 'dist', 'renderer', 'dist', 'index.html');
      assert.equal(unpackedPath(inArchive), inArchive);
    });

    it('outside a packaged app every path is the installed one', () => {
      assert.equal(anvilBinaryPath(), join(dirname(requireHere.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil'));
      assert.ok(existsSync(anvilBinaryPath()), 'the anvil binary is installed');
      assert.equal(cryptoNativePath(), join(root, 'engine', 'services', 'crypto', 'native', 'cryptoNative.node'));
      assert.deepEqual(sqliteBinding(), {});
    });
  });
});
