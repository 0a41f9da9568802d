import type { AgentInfo, AgentLimits, AuditEntry, PerformanceReport, RunSummary } from '../protocol/agentTypes.js';
import { operatorCall } from './operatorCall.js';

export type { AgentInfo, AgentLimits, AuditEntry, PerformanceReport, RunSummary };

/**
 * The operator routes of agents and performance reports (docs/agents.md): issue, list and revoke agent
 * tokens, read the audit log of their MCP calls, and read any account's report, live or of a finished
 * run. Isomorphic (fetch only), like the exchange client.
 */
export class AgentsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly operatorToken: string,
    private readonly fetchImpl: typeof fetch = (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  ) {}

  /** Issues a token bound to a new funded paper wallet; the answer carries the token, shown this once. */
  create(body: { name?: string; limits?: Partial<AgentLimits> } = {}): Promise<AgentInfo & { token: string }> {
    return this.call('POST', '/admin/agents', body);
  }

  async list(): Promise<AgentInfo[]> {
    return (await this.call<{ agents: AgentInfo[] }>('GET', '/admin/agents')).agents;
  }

  revoke(id: string): Promise<AgentInfo> {
    return this.call('DELETE', `/admin/agents/${encodeURIComponent(id)}`);
  }

  /** The newest audit entries (oldest first), of one agent when `agent` is given. */
  async audit(q: { agent?: string; limit?: number } = {}): Promise<AuditEntry[]> {
    const params = new URLSearchParams();
    if (q.agent) params.set('agent', q.agent);
    if (q.limit !== undefined) params.set('limit', String(q.limit));
    const qs = params.toString();
    return (await this.call<{ entries: AuditEntry[] }>('GET', `/admin/agents/audit${qs ? `?${qs}` : ''}`)).entries;
  }

  /** Any account's performance now, with its equity curve. */
  report(address: string): Promise<PerformanceReport> {
    return this.call('GET', `/admin/reports/${encodeURIComponent(address)}`);
  }

  async runs(): Promise<RunSummary[]> {
    return (await this.call<{ runs: RunSummary[] }>('GET', '/admin/runs')).runs;
  }

  runReport(runId: string, address: string): Promise<PerformanceReport> {
    return this.call('GET', `/admin/runs/${encodeURIComponent(runId)}/report?account=${encodeURIComponent(address)}`);
  }

  private call<R>(method: string, path: string, body?: unknown): Promise<R> {
    return operatorCall<R>({ baseUrl: this.baseUrl, operatorToken: this.operatorToken, fetchImpl: this.fetchImpl, what: 'Agent tokens and reports' }, method, path, body);
  }
}
