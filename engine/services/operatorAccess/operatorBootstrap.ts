import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';

/** How long a bootstrap code lives: long enough for a browser window to open and load the page. */
export const BOOTSTRAP_TTL_MS = 60_000;

/**
 * Hands the operator token to the terminal window that `npm start` opens without putting the token on
 * a command line (any local user can read /proc/<pid>/cmdline) or in a log. The launcher puts a
 * one-time code in the URL fragment instead (inside a 0600 launcher page, so not on argv either:
 * scripts/launcherFile.ts); the page trades it once for the token. A code is dead after its first use
 * or after BOOTSTRAP_TTL_MS.
 */
export class OperatorBootstrap {
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly token: () => string,
  ) {}

  /** A fresh single-use code. */
  issue(): string {
    this.sweep();
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, this.clock.nowMs() + BOOTSTRAP_TTL_MS);
    return code;
  }

  /** The operator token for a live code (which dies now), else undefined. */
  redeem(code: string): string | undefined {
    const expires = this.codes.get(code);
    this.codes.delete(code);
    if (expires === undefined || this.clock.nowMs() >= expires) return undefined;
    return this.token();
  }

  private sweep(): void {
    const now = this.clock.nowMs();
    for (const [code, expires] of this.codes) if (now >= expires) this.codes.delete(code);
  }
}
