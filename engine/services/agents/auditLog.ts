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
    // The result is serialised once: the line is built around it (a read tool's result is most of the line).
    const json = JSON.stringify(e.result ?? null);
    const result = json.length > MAX_RESULT ? JSON.stringify({ truncated: true, text: json.slice(0, MAX_RESULT) }) : json;
    const { result: _result, ...rest } = e;
    appendFileSync(this.path, `${JSON.stringify(rest).slice(0, -1)},"result":${result}}\n`);
  }

  /** The newest `limit` entries (oldest first), optionally of one agent. */
  read(q: { agentId?: string; limit: number }): AuditEntry[] {
    if (!existsSync(this.path)) return [];
    const lines = readFileSync(this.path, 'utf8').split('\n').filter((l) => l !== '');
    const all = lines.map((l) => JSON.parse(l) as AuditEntry).filter((e) => q.agentId === undefined || e.agentId === q.agentId);
    return all.slice(Math.max(0, all.length - q.limit));
  }
}
