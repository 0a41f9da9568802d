/**
 * Query keys to refetch, at most once per window: the first key after a quiet window goes out at once,
 * keys added during the window go out together when it ends (each key once, however often it was added).
 */
export class CoalescedRefresh {
  private readonly pending = new Map<string, readonly unknown[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAt = -Infinity;

  constructor(
    private readonly windowMs: number,
    private readonly run: (keys: ReadonlyArray<readonly unknown[]>) => void,
    private readonly now: () => number = () => Date.now(),
  ) {}

  add(key: readonly unknown[]): void {
    this.pending.set(JSON.stringify(key), key);
    if (this.timer !== undefined) return;
    const wait = this.lastAt + this.windowMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private flush(): void {
    this.timer = undefined;
    this.lastAt = this.now();
    const keys = [...this.pending.values()];
    this.pending.clear();
    if (keys.length > 0) this.run(keys);
  }
}
