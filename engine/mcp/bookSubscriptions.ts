/** Least wall time between two notifications of one subscribed book: a busy book would otherwise flood the agent. */
export const BOOK_NOTIFY_MS = 250;

interface Subscription {
  readonly conditionId: string;
  last: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * An MCP session's subscriptions to book resources (`sandbox://books/{tokenId}`): a change of the
 * market's book notifies `resources/updated` for the URI at once if none went out in the last
 * BOOK_NOTIFY_MS, else once at the end of that window (so the last change is never lost, and a book
 * that changes a thousand times a second costs four notifications).
 */
export class BookSubscriptions {
  private readonly subs = new Map<string, Subscription>();

  constructor(
    private readonly notify: (uri: string) => void,
    private readonly now: () => number = Date.now,
    private readonly throttleMs = BOOK_NOTIFY_MS,
  ) {}

  subscribe(uri: string, conditionId: string): void {
    if (!this.subs.has(uri)) this.subs.set(uri, { conditionId, last: -Infinity, timer: undefined });
  }

  unsubscribe(uri: string): void {
    clearTimeout(this.subs.get(uri)?.timer);
    this.subs.delete(uri);
  }

  /** A market's book changed. */
  changed(conditionId: string): void {
    for (const [uri, s] of this.subs) {
      if (s.conditionId !== conditionId || s.timer) continue;
      const wait = s.last + this.throttleMs - this.now();
      if (wait <= 0) this.fire(uri, s);
      else {
        s.timer = setTimeout(() => this.fire(uri, s), wait);
        s.timer.unref();
      }
    }
  }

  get size(): number {
    return this.subs.size;
  }

  close(): void {
    for (const s of this.subs.values()) clearTimeout(s.timer);
    this.subs.clear();
  }

  private fire(uri: string, s: Subscription): void {
    s.timer = undefined;
    if (this.subs.get(uri) !== s) return;
    s.last = this.now();
    this.notify(uri);
  }
}
