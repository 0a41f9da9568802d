import { createL2Headers, type ApiCredentials } from '../../../engine/client/index.js';
import { SERVICES } from '../env.js';
import { rateLimitFetch } from '../api/rateLimitUse.js';

/** An archived paper session (engine/services/paper/paperService.ts; docs/paper.md). */
export interface PaperSession {
  id: number;
  startedAt: number;
  endedAt: number;
  collateral: string;
  reserved: string;
  positions: Array<{ asset: string; title: string; outcome: string; size: number; avgPrice: number; curPrice: number; currentValue: number; cashPnl: number; realizedPnl: number }>;
  realizedPnl: number;
  unrealizedPnl: number;
  tradeCount: number;
  cancelledOrders: number;
  startingBalance: string;
}

export interface PaperSessions {
  startingBalance: string;
  currentSessionStartedAt: number | null;
  sessions: PaperSession[];
}

/** The paper routes over L2 (the client library has no paper calls: they are this exchange's own). */
export function createPaperApi(address: string, creds: ApiCredentials, base = SERVICES.trading) {
  async function call<T>(method: 'GET' | 'POST', path: string): Promise<T> {
    const res = await rateLimitFetch(base + path, { method, headers: { ...createL2Headers(creds, address, { method, path }) } });
    const body = (await res.json().catch(() => ({}))) as T & { message?: string; error?: string };
    if (!res.ok) throw new Error(`${body.error ?? res.status}: ${body.message ?? res.statusText}`);
    return body;
  }
  return {
    reset: () => call<{ session: PaperSession; balance: string; cancelled: string[] }>('POST', '/paper/reset'),
    sessions: () => call<PaperSessions>('GET', '/paper/sessions'),
  };
}
