import type { OrderWrite } from '../../store/orderWrites.js';

/**
 * What the order service tells a listener (the streams service) about its changes. The memory change
 * and `capture` happen in one synchronous stretch, so a capture sees exactly its own change; `committed`
 * comes after the writer made those writes durable, in commit order (never for a write that failed).
 */
export interface OrderEvents {
  /** A market's book changed in memory (called before the capture of the same change). */
  touched(conditionId: string): void;
  /** Called right after the memory change that `ops` make durable; returns what to publish later. */
  capture(ops: readonly OrderWrite[]): unknown;
  /** The writes of a capture have committed. */
  committed(captured: unknown): void;
}
