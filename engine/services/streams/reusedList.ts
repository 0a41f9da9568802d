/**
 * A list emptied and refilled again and again (per event or per flush). `array.length = 0` gives the
 * array's storage up, so every refill would allocate it again; this keeps it, and blanks the used slots
 * when emptied so nothing outlives its turn.
 */
export class ReusedList<T> {
  private readonly items: Array<T | undefined> = [];
  length = 0;

  push(item: T): void {
    this.items[this.length++] = item;
  }

  at(i: number): T {
    return this.items[i] as T;
  }

  /** Keeps the first `n` items (the caller rewrote them with `set`), blanking the rest. */
  truncate(n: number): void {
    for (let i = n; i < this.length; i++) this.items[i] = undefined;
    this.length = n;
  }

  set(i: number, item: T): void {
    this.items[i] = item;
  }

  clear(): void {
    this.truncate(0);
  }
}
