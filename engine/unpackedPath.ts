import { existsSync } from 'node:fs';
import { sep } from 'node:path';

/**
 * The real file behind a path inside a packaged app's `app.asar`. electron-builder packs the app into
 * one archive and puts the files `asarUnpack` names (native addons, the anvil binary) beside it in
 * `app.asar.unpacked/`, same relative path. Electron's fs reads through the archive, but an executable
 * handed to `spawn` and an addon handed to `dlopen` must be real files, so the engine resolves them
 * here. Outside a packaged app (or for a file that was not unpacked) the path comes back unchanged.
 */
export function unpackedPath(path: string, exists: (p: string) => boolean = existsSync): string {
  const marker = `${sep}app.asar${sep}`;
  const at = path.indexOf(marker);
  if (at < 0) return path;
  const real = `${path.slice(0, at)}${sep}app.asar.unpacked${sep}${path.slice(at + marker.length)}`;
  return exists(real) ? real : path;
}

/** Whether a path lies inside a packaged app's archive. */
export function insideAsar(path: string): boolean {
  return path.includes(`${sep}app.asar${sep}`);
}
