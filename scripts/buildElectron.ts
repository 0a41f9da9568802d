// Builds the desktop app's main process into dist/ (what electron-builder packages):
//   dist/engine/**, dist/electron/**   compiled by tsc, keeping the source layout so the engine's
//                                      import.meta.url paths to renderer/dist and resources still resolve
//   dist/electron/preload.cjs          the preload as ONE CommonJS file (sandboxed preloads cannot import)
//   dist/renderer/dist, dist/resources the terminal's web build and the compiled contracts, copied
// Usage: npx tsx scripts/buildElectron.ts [--preload-only | --engine]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

export async function buildPreload(): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: join(dist, 'electron'),
      emptyOutDir: false,
      minify: false,
      target: 'node20',
      lib: { entry: join(root, 'electron', 'preloadEntry.ts'), formats: ['cjs'], fileName: () => 'preload.cjs' },
      rollupOptions: { external: ['electron'] },
    },
  });
  return join(dist, 'electron', 'preload.cjs');
}

function compileMain(): void {
  const r = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'electron/tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  // tsc still emits on type errors; a failed type check is reported, the lead's typecheck gate decides.
  if (r.status !== 0) console.error('tsc reported type errors (see above); the JavaScript was emitted anyway.');
}

/** Non-TypeScript files the engine loads at run time (worker scripts, JSON) travel with the compiled code. */
function copyAssets(dir: string): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) copyAssets(p);
    else if (!p.endsWith('.ts')) {
      const target = join(dist, relative(root, p));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(p, target);
    }
  }
}

async function main(): Promise<void> {
  // --engine: only what the headless exchange needs (`npm run build:engine`, run by `npm install`).
  const engineOnly = process.argv.includes('--engine');
  if (!engineOnly) {
    const preload = await buildPreload();
    console.log(`preload → ${relative(root, preload)}`);
    if (process.argv.includes('--preload-only')) return;
  }
  compileMain();
  copyAssets(join(root, 'engine'));
  for (const dir of ['renderer/dist', 'resources/contracts/build']) {
    if (!existsSync(join(root, dir))) {
      if (engineOnly && dir === 'renderer/dist') continue; // the headless engine answers /app with a JSON 404 then
      console.error(`${dir} is missing: run \`npm run build\` first.`);
      process.exit(1);
    }
    cpSync(join(root, dir), join(dist, dir), { recursive: true });
  }
  // scripts/exchange.mjs runs dist/ only while this stamp is newer than every engine source.
  writeFileSync(join(dist, '.engine-build-stamp'), new Date().toISOString() + '\n');
  console.log(engineOnly ? 'engine → dist/engine/cli.js' : `main process → dist/electron/mainEntry.js`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
