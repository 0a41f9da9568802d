import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import type { AgentInfo } from '../../protocol/agentTypes.js';
import { makePrivateDir, makePrivateFile } from '../../store/privateFiles.js';
import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';
import { DemoSigner } from '../markets/seedDemoMarkets.js';
import { AuditLog } from './auditLog.js';
import { checkedLimits, PlacementWindow } from './agentLimits.js';

export type { AgentInfo };

interface StoredAgent extends AgentInfo {
  /** sha256 of the bearer token, hex. */
  tokenHash: string;
  privateKey: `0x${string}`;
}

/** An authenticated agent: its record, its signer and its placement window. */
export interface AgentSession {
  readonly info: AgentInfo;
  readonly signer: DemoSigner;
  readonly window: PlacementWindow;
  /** The first characters of its token, for the audit log. */
  readonly tokenHint: string;
}

const TOKEN_PREFIX = 'agt_';
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** What the agent registry uses: the data directory and seed (config, ids), the chain's addresses for signing, exchange time, and the wallet grant. */
export type AgentDeps = Pick<Infra, 'chain' | 'clock' | 'config' | 'ids'> & { readonly orders: Pick<OrderService, 'creditCollateral'> };

/**
 * Agent tokens (issue 24): the operator issues one per agent, bound to a fresh paper wallet the engine
 * creates, funds with the starting paper balance and signs with; the agent never supplies a key. Tokens
 * are kept hashed in `<data>/agents/agents.json` (mode 0600, beside the wallets' keys, like secrets.json);
 * a revoked token is refused from the next request on. Every tool call goes to the audit log.
 */
export class AgentService {
  readonly audit: AuditLog;
  private readonly file: string;
  private readonly agents: StoredAgent[];
  private readonly sessions = new Map<string, AgentSession>();

  constructor(private readonly ctx: AgentDeps) {
    const dir = join(ctx.config.dataDir, 'agents');
    // Wallet keys and the calls' arguments: private like the rest of the data directory (0700/0600, every start).
    makePrivateDir(dir);
    this.file = join(dir, 'agents.json');
    makePrivateFile(this.file);
    makePrivateFile(join(dir, 'audit.jsonl'), true);
    this.audit = new AuditLog(join(dir, 'audit.jsonl'));
    this.agents = existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as StoredAgent[]) : [];
  }

  list(): AgentInfo[] {
    return this.agents.map(infoOf);
  }

  /** Issues a token bound to a new funded paper wallet. The token is shown once, here. */
  async create(body: { name?: unknown; limits?: unknown } = {}): Promise<AgentInfo & { token: string }> {
    const name = body.name === undefined ? `agent ${this.agents.length + 1}` : body.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100) {
      throw new ApiError('invalid_field', `name must be a non-empty string of at most 100 characters; got ${JSON.stringify(body.name)}.`, { details: { field: 'name' } });
    }
    const limits = checkedLimits(body.limits);
    const n = this.agents.length + 1;
    // A stepped or fast run draws the wallet from its seed, so two runs of one script trade from the same address.
    const privateKey = this.ctx.ids ? this.ctx.ids.privateKey(`agent-${n}`) : (`0x${randomBytes(32).toString('hex')}` as const);
    const signer = new DemoSigner(this.ctx, privateKey);
    const address = signer.address.toLowerCase();
    const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
    const stored: StoredAgent = { id: `agent-${n}`, name: name.trim(), address, limits, createdAt: this.ctx.clock.nowMs(), revokedAt: null, tokenHash: hashOf(token), privateKey };
    await this.ctx.orders.creditCollateral(address, this.ctx.config.initialCollateral, 'agent wallet');
    this.agents.push(stored);
    this.save();
    return { ...infoOf(stored), token };
  }

  revoke(id: string): AgentInfo {
    const a = this.agents.find((x) => x.id === id);
    if (!a) throw new ApiError('agent_not_found', `No agent has the id ${JSON.stringify(id)}. List agents with GET /admin/agents.`);
    if (a.revokedAt === null) {
      a.revokedAt = this.ctx.clock.nowMs();
      this.save();
    }
    this.sessions.delete(a.tokenHash);
    return infoOf(a);
  }

  /** The agent a bearer token names, or ApiError agent_unauthorized. */
  authenticate(authorization: string | undefined): AgentSession {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!m) throw new ApiError('agent_unauthorized', 'The MCP endpoint needs the header Authorization: Bearer <agent token>; an operator issues one with POST /admin/agents.');
    return this.byToken(m[1]!);
  }

  byToken(token: string): AgentSession {
    const hash = hashOf(token);
    const cached = this.sessions.get(hash);
    if (cached) return cached;
    const a = this.agents.find((x) => timingSafeEqual(Buffer.from(x.tokenHash), Buffer.from(hash)));
    if (!a) throw new ApiError('agent_unauthorized', 'This agent token is unknown. Ask the operator for one (POST /admin/agents).');
    if (a.revokedAt !== null) throw new ApiError('agent_unauthorized', `This agent token was revoked at ${new Date(a.revokedAt).toISOString()}. Ask the operator for a new one (POST /admin/agents).`);
    return this.sessionOf(a, token.slice(0, TOKEN_PREFIX.length + 6));
  }

  /**
   * The in-process agent of `npm run mcp` (stdio): the live agent of this name, or a new one. The stdio
   * client is the engine's own process owner, so no token travels; the audit log names it `stdio`.
   */
  async local(name: string, limits?: unknown): Promise<AgentSession> {
    const found = this.agents.find((x) => x.name === name && x.revokedAt === null);
    if (found) return this.sessionOf(found, 'stdio');
    const created = await this.create({ name, ...(limits === undefined ? {} : { limits }) });
    return this.sessionOf(this.agents.find((x) => x.id === created.id)!, 'stdio');
  }

  private sessionOf(a: StoredAgent, tokenHint: string): AgentSession {
    const cached = this.sessions.get(a.tokenHash);
    if (cached) return cached;
    const session: AgentSession = { info: infoOf(a), signer: new DemoSigner(this.ctx, a.privateKey), window: new PlacementWindow(), tokenHint };
    this.sessions.set(a.tokenHash, session);
    return session;
  }

  /** The starting paper balance, as text (for summaries). */
  startingBalance(): string {
    return formatUnits(this.ctx.config.initialCollateral);
  }

  private save(): void {
    writeFileSync(this.file, JSON.stringify(this.agents, null, 2) + '\n', { mode: 0o600 });
  }
}

function infoOf(a: StoredAgent): AgentInfo {
  return { id: a.id, name: a.name, address: a.address, limits: a.limits, createdAt: a.createdAt, revokedAt: a.revokedAt };
}
