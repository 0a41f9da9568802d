import type { StreamLimits } from './streamTransport.js';

/** What the watch does when a socket breaks a rule (the HTTP layer closes it). */
export interface SocketWatchHooks {
  /** Nothing heard for `idleTimeoutMs` (absent where the connection keeps its own keepalive, as the live-data socket does). */
  idle?(): void;
  /** Still unauthenticated `loginTimeoutMs` after it opened (user channel only). */
  loginDue?(): void;
}

/**
 * The per-socket rules that keep one client from starving the others: a message budget (a token
 * bucket: `messagesPerSecond` sustained, `messageBurst` at once), an idle cut-off and, on the user
 * channel, a login deadline. One timer per socket, re-armed only when it fires (a busy socket costs a
 * clock read per message, not a timer).
 */
export class SocketWatch {
  private tokens: number;
  private refilledAt: number;
  private heardAt: number;
  private idleTimer: NodeJS.Timeout | undefined;
  private loginTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: StreamLimits,
    private readonly hooks: SocketWatchHooks,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = limits.messageBurst;
    this.refilledAt = this.heardAt = now();
    if (hooks.idle) this.armIdle(limits.idleTimeoutMs);
    if (hooks.loginDue) {
      this.loginTimer = setTimeout(() => hooks.loginDue!(), limits.loginTimeoutMs);
      this.loginTimer.unref();
    }
  }

  /** A message (or protocol ping) arrived; false when it is over the socket's budget. */
  heard(): boolean {
    const now = this.now();
    this.heardAt = now;
    const { messagesPerSecond: rate, messageBurst: burst } = this.limits;
    this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  stop(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.loginTimer);
    this.idleTimer = this.loginTimer = undefined;
  }

  private armIdle(ms: number): void {
    this.idleTimer = setTimeout(() => {
      const silent = this.now() - this.heardAt;
      if (silent >= this.limits.idleTimeoutMs) this.hooks.idle?.();
      else this.armIdle(this.limits.idleTimeoutMs - silent);
    }, ms);
    this.idleTimer.unref();
  }
}
