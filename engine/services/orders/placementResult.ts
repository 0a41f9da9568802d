import { PLACEMENT_ERRORS, type PlacementErrorCode } from '../../protocol/errors.js';

export type PlacementStatus = 'live' | 'matched' | 'delayed' | 'unmatched';

/** The placement result of interface §2.3 plus `status` (decisions §3); key order as listed there. */
export interface PlacementResult {
  success: boolean;
  error_msg: string;
  order_hashes: string[];
  error_code: PlacementErrorCode | null;
  order_id: string | null;
  status: PlacementStatus;
}

/** A refused order: nothing was stored, matched or reserved. */
export function rejected(code: PlacementErrorCode, message?: string): PlacementResult {
  return { success: false, error_msg: message ?? PLACEMENT_ERRORS[code], order_hashes: [], error_code: code, order_id: null, status: 'unmatched' };
}

/** An accepted order, with an optional warning code (a rule that is switched off, decisions §3). */
export function accepted(orderId: string, status: PlacementStatus, warning?: { code: PlacementErrorCode; message: string }): PlacementResult {
  return {
    success: true,
    error_msg: warning?.message ?? '',
    order_hashes: [],
    error_code: warning?.code ?? null,
    order_id: orderId,
    status,
  };
}

/** A rejection the placement code chose to report (validation results travel as values, not exceptions). */
export interface Rejection {
  readonly code: PlacementErrorCode;
  readonly message: string;
}

export function rejection(code: PlacementErrorCode, message?: string): Rejection {
  return { code, message: message ?? PLACEMENT_ERRORS[code] };
}
