import type { ScenarioProgress, ScenarioSummary } from '../protocol/schemas/scenario.js';
import { operatorCall } from './operatorCall.js';

export type { ScenarioProgress, ScenarioSummary };

/** A simulated participant as GET /sim/participants lists it (decisions §9). */
export interface SimParticipant {
  address: string;
  name: string;
  role: 'marketMaker' | 'noise' | 'informed' | 'whale';
  market: string;
}

export interface SimParticipantState {
  name: string;
  role: SimParticipant['role'];
  address: string;
  conditionId: string;
  enabled: boolean;
  intensity: number;
  latencyMs: number;
  knobs: Record<string, number | string>;
  orders: number;
}

export interface SimMarketState {
  conditionId: string;
  enabled: boolean;
  seed: number;
  fair: string;
  participants: SimParticipantState[];
}

export interface SimMarketChange {
  enabled?: boolean;
  participant?: string;
  participantEnabled?: boolean;
  intensity?: number;
  latencyMs?: number;
  knobs?: Record<string, number | string>;
  fair?: string;
}

/**
 * The simulation routes (participants, scenarios): the public participant list and the operator controls.
 * Isomorphic (fetch only), like the exchange client.
 */
export class SimClient {
  constructor(
    private readonly baseUrl: string,
    private readonly operatorToken?: string,
    private readonly fetchImpl: typeof fetch = (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  ) {}

  /** Public: every simulated participant's address (to mark a simulated counterparty). */
  participants(): Promise<SimParticipant[]> {
    return this.call('GET', '/sim/participants', undefined, false);
  }

  state(): Promise<{ enabled: boolean; markets: SimMarketState[] }> {
    return this.call('GET', '/admin/sim');
  }

  changeMarket(conditionId: string, change: SimMarketChange): Promise<SimMarketState> {
    return this.call('PUT', `/admin/sim/markets/${encodeURIComponent(conditionId)}`, change);
  }

  scenarios(): Promise<{ library: ScenarioSummary[]; current: ScenarioProgress | null }> {
    return this.call('GET', '/admin/scenarios');
  }

  startScenario(start: { name: string } | { scenario: unknown }): Promise<ScenarioProgress> {
    return this.call('POST', '/admin/scenarios', start);
  }

  stopScenario(): Promise<{ stopped: ScenarioProgress | null }> {
    return this.call('DELETE', '/admin/scenarios/current');
  }

  private call<R>(method: string, path: string, body?: unknown, operator = true): Promise<R> {
    return operatorCall({ baseUrl: this.baseUrl, operatorToken: this.operatorToken, fetchImpl: this.fetchImpl, what: 'Simulation controls' }, method, path, body, operator);
  }
}
