import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A one-shot launcher page for the browser window: the terminal URL with its one-time bootstrap code
 * lives in a file only this user can read (0600, in the data directory), and only the file's path goes
 * on the browser's command line. `/proc/<pid>/cmdline` is readable by every local user, so a code there
 * could be posted by another process before the window (measured: it got the operator token).
 * The page replaces itself with the terminal at once (meta refresh: no script runs, nothing loads, no
 * Referer is sent); `remove()` deletes it once the code is dead.
 */
export function writeLauncher(dataDir: string, target: string): { path: string; url: string; remove(): void } {
  const path = join(dataDir, `launch-${randomBytes(8).toString('hex')}.html`);
  const html =
    '<!doctype html><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">` +
    '<meta name="referrer" content="no-referrer">' +
    `<meta http-equiv="refresh" content="0;url=${escapeAttr(target)}">` +
    '<title>Sandbox Exchange</title>';
  // wx: never follows or overwrites a file someone placed there; 0600: readable by this user only.
  writeFileSync(path, html, { mode: 0o600, flag: 'wx' });
  return { path, url: pathToFileURL(path).href, remove: () => rmSync(path, { force: true }) };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
