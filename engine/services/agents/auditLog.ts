import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { AuditEntry } from '../../protocol/agentTypes.js';

export type { AuditEntry };

const MAX_RESULT = 16_000;

/**
 * Every MCP tool call, appended as one JSON line to `<data>/agents/audit.jsonl` before the answer
 * leaves (appendFileSync: a crash never loses a call that was answered).
 */
export class AuditLog {
  /** `path`'s folder exists (the agents service makes it private first). */
  constructor(readonly path: string) {}

  append(e: AuditEntry): void {
    const json = JSON.stringify(e.result ?? null);
    const entry = json.length > MAX_RESULT ? { ...e, result: { truncated: true, text: json.slice(0, MAX_RESULT) } } : e;
    appendFileSync(this.path, JSON.stringify(entry) + '\n');
  }

  /** The newest `limit` entries (oldest first), optionally of one agent. */
  read(q: { agentId?: string; limit: number }): AuditEntry[] {
    if (!existsSync(this.path)) return [];
    const lines = readFileSync(this.path, 'utf8').split('\n').filter((l) => l !== '');
    const all = lines.map((l) => JSON.parse(l) as AuditEntry).filter((e) => q.agentId === undefined || e.agentId === q.agentId);
    return all.slice(Math.max(0, all.length - q.limit));
  }
}
