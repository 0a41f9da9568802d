#!/usr/bin/env node
// Builds the cryptoNative addon (engine/services/crypto/native: batch signature verification and
// HMAC-SHA256) with the node-gyp that npm bundles, and leaves one file beside its sources:
// cryptoNative.node, which the signature worker and the L2 authentication load (and which
// scripts/buildElectron.ts copies into dist/ with the other engine assets). Run by `npm install`
// (prepare). Without a C compiler the build fails with a warning and the engine recovers every
// signature one by one and uses node's createHmac instead (slower, same answers).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../engine/services/crypto/native/', import.meta.url));
const prefix = dirname(dirname(process.execPath));

function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((p) => p && existsSync(p));
}

const gyp = nodeGyp();
if (!gyp) {
  console.warn('buildNative: node-gyp not found (npm bundles it); the engine uses its slower fallbacks.');
  process.exit(0);
}
const args = [gyp, 'rebuild', '--loglevel=warn', '--directory', dir];
// Node's own headers when the install has them: node-gyp would otherwise download them.
if (!process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${prefix}`);
const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
const built = join(dir, 'build', 'Release', 'crypto_native.node');
if (r.status !== 0 || !existsSync(built)) {
  console.warn('buildNative: the cryptoNative addon did not build (see above); the engine uses its slower fallbacks.');
  process.exit(0);
}
copyFileSync(built, join(dir, 'cryptoNative.node'));
rmSync(join(dir, 'build'), { recursive: true, force: true });
console.log('native → engine/services/crypto/native/cryptoNative.node');
