import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The data directory holds the master key, the operator token, wallets' keys and every balance: no
 * other local user may read it. Modes are enforced at every start (chmod), not only at creation, so a
 * directory copied, restored or loosened by hand is tightened again.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates the file empty with mode 0600 when it is missing (so it never exists world-readable), else tightens it. */
export function makePrivateFile(path: string, create = false): void {
  if (!existsSync(path)) {
    if (!create) return;
    closeSync(openSync(path, 'a', 0o600));
  }
  chmodSync(path, 0o600);
}
