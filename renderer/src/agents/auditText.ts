import type { AuditEntry } from '../../../engine/client/agentsClient.js';

/** JSON on one line, cut to `max` characters with an ellipsis. */
export function compactJson(v: unknown, max: number): string {
  const s = JSON.stringify(v ?? null) ?? 'null';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * One line for an audit entry's result: the refusal's text for an error, else what the result holds
 * (the count of a list, an order's status, the key figures of a report), else its JSON cut short.
 */
export function auditSummary(e: Pick<AuditEntry, 'ok' | 'result'>, max = 100): string {
  const r = e.result;
  if (!e.ok) {
    const text = r && typeof r === 'object' && 'error' in r ? (r as { error: unknown }).error : r;
    return compactJson(typeof text === 'string' ? text : text, max).replace(/^"|"$/g, '');
  }
  if (typeof r === 'string') return r.length > max ? `${r.slice(0, max - 1)}…` : r;
  if (r && typeof r === 'object' && !Array.isArray(r)) {
    const o = r as Record<string, unknown>;
    const lists = Object.entries(o).filter(([, v]) => Array.isArray(v));
    if (lists.length === 1 && Object.keys(o).length <= 2) return `${(lists[0]![1] as unknown[]).length} ${lists[0]![0]}`;
    const keys = ['status', 'orderID', 'pnl', 'available', 'now', 'bestBid', 'bestAsk', 'mid'].filter((k) => o[k] !== undefined);
    if (keys.length) return keys.map((k) => `${k} ${String(o[k])}`).join(' · ');
  }
  return compactJson(r, max);
}
