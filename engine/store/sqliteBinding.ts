import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { insideAsar, unpackedPath } from '../unpackedPath.js';

/**
 * better-sqlite3's options for this process: in the packaged app, where the package lies inside
 * app.asar, the addon is named explicitly as the real file electron-builder unpacked
 * (app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node), so loading it
 * does not depend on Electron redirecting `bindings`' search into the archive. Elsewhere `{}`: the
 * package finds its own build.
 */
export function sqliteBinding(pkg: string = createRequire(import.meta.url).resolve('better-sqlite3/package.json')): Database.Options {
  const addon = join(dirname(pkg), 'build', 'Release', 'better_sqlite3.node');
  return insideAsar(addon) ? { nativeBinding: unpackedPath(addon) } : {};
}
