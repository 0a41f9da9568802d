import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import type { Scenario, ScenarioEvent, ScenarioProgress, ScenarioSummary } from '../../protocol/schemas/scenario.js';
import { ManualClock } from '../clock.js';
import type { Infra } from '../infra.js';
import type { MarketService } from '../markets/marketService.js';
import type { SimulationService } from '../participants/simulationService.js';
import { checkScenario, parseScenarioText } from './scenarioFile.js';

/** The scenario library shipped with the project (scenarios/ at the repository root, from the sources or from dist/). */
export const SCENARIO_DIR = ['../../../scenarios/', '../../../../scenarios/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url))).find((d) => existsSync(d)) ?? fileURLToPath(new URL('../../../scenarios/', import.meta.url));

/** What a scenario drives: the markets (operator actions) and the simulated participants. */
export type ScenarioDeps = Pick<Infra, 'clock'> & {
  readonly markets: Pick<MarketService, 'byCondition' | 'list' | 'pause' | 'resolve' | 'resume' | 'setTickSize'>;
  readonly sim: Pick<SimulationService, 'addWhale' | 'configure' | 'disableMarket' | 'enableMarket' | 'list' | 'reseed' | 'runFor' | 'scheduler' | 'setTruth' | 'shock'>;
};

/**
 * Runs one scenario at a time (decisions §9): its events go on the simulation's scheduler at their
 * offsets from the start, so they interleave with the participants' actions deterministically, in real
 * time or, on a manual clock, in fast mode (runToEnd).
 */
export class ScenarioService {
  private run: { scenario: Scenario; progress: ScenarioProgress; gen: number } | undefined;
  private gen = 0;

  constructor(
    private readonly ctx: ScenarioDeps,
    private readonly dir = SCENARIO_DIR,
  ) {}

  /** The library: every .yaml/.yml/.json file of the scenarios folder that parses. */
  library(): ScenarioSummary[] {
    let files: string[];
    try {
      files = readdirSync(this.dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
    } catch {
      return [];
    }
    return files.flatMap((file) => {
      try {
        const s = parseScenarioText(readFileSync(join(this.dir, file), 'utf8'), file);
        return [{ name: s.name, description: s.description ?? '', durationSeconds: s.durationSeconds, file }];
      } catch {
        return [];
      }
    });
  }

  /** A scenario of the library by name. */
  byName(name: string): Scenario {
    const hit = this.library().find((s) => s.name === name);
    if (!hit) {
      throw new ApiError('invalid_field', `No scenario named '${String(name).slice(0, 80)}' in the library; GET /admin/scenarios lists them (${this.library().map((s) => s.name).join(', ')}).`, { details: { field: 'name' } });
    }
    return parseScenarioText(readFileSync(join(this.dir, hit.file), 'utf8'), hit.file);
  }

  current(): ScenarioProgress | null {
    if (!this.run) return null;
    const p = this.run.progress;
    if (p.state === 'running') p.elapsedSeconds = Math.min(p.durationSeconds, (this.ctx.clock.nowMs() - p.startedAt) / 1000);
    return { ...p, steps: [...p.steps] };
  }

  /** Starts a scenario (stopping the one running), from the library by name or inline. */
  async start(input: { name?: string; scenario?: unknown; seed?: number }): Promise<ScenarioProgress> {
    if ((input.name === undefined) === (input.scenario === undefined)) {
      throw new ApiError('invalid_field', "Send either 'name' (a library scenario) or 'scenario' (an inline one), not both or neither.", { details: { field: 'name' } });
    }
    const scenario = input.name !== undefined ? this.byName(input.name) : checkScenario(input.scenario);
    scenario.events.forEach((e, i) => this.actionOf(e, i)); // refuse unknown markets before anything starts
    this.stop();
    const gen = ++this.gen;
    const startedAt = this.ctx.clock.nowMs();
    const progress: ScenarioProgress = { name: scenario.name, state: 'running', startedAt, elapsedSeconds: 0, durationSeconds: scenario.durationSeconds, eventsDone: 0, eventsTotal: scenario.events.length, steps: [] };
    this.run = { scenario, progress, gen };
    const seed = input.seed ?? scenario.seed;
    if (seed !== undefined) await this.ctx.sim.reseed(seed);
    for (const ref of scenario.markets ?? []) await this.ctx.sim.enableMarket(this.marketOf(ref, 'markets'));
    this.checkParticipants(scenario);
    const sched = this.ctx.sim.scheduler;
    scenario.events.forEach((e, i) => {
      sched.at(startedAt + Math.round(e.at * 1000), async () => {
        if (this.run?.gen !== gen) return;
        await this.apply(e, i, progress);
      }, 'scenario');
    });
    sched.at(startedAt + Math.round(scenario.durationSeconds * 1000), () => {
      if (this.run?.gen !== gen) return;
      progress.state = 'finished';
      progress.elapsedSeconds = scenario.durationSeconds;
    }, 'marker');
    return this.current()!;
  }

  stop(): ScenarioProgress | null {
    if (this.run && this.run.progress.state === 'running') {
      this.run.progress.state = 'stopped';
      this.run.progress.elapsedSeconds = (this.ctx.clock.nowMs() - this.run.progress.startedAt) / 1000;
    }
    this.gen++;
    if (this.run) this.run.gen = -1;
    return this.run ? { ...this.run.progress } : null;
  }

  /** Fast mode: with the engine on a ManualClock, runs the current scenario to its end without waiting. */
  async runToEnd(): Promise<ScenarioProgress> {
    if (!(this.ctx.clock instanceof ManualClock)) throw new Error('fast mode needs the engine on a manual clock');
    const p = this.run?.progress;
    if (!p) throw new Error('no scenario is running');
    await this.ctx.sim.runFor(p.startedAt + p.durationSeconds * 1000 - this.ctx.clock.nowMs());
    return this.current()!;
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────

  private marketOf(ref: number | string, field: string): string {
    const m = typeof ref === 'number' ? this.ctx.markets.list()[ref] : this.ctx.markets.byCondition(ref);
    if (!m) throw new ApiError('invalid_field', `Field '${field}' names no market (${JSON.stringify(ref)}): use an index of GET /markets (0..${this.ctx.markets.list().length - 1}) or a condition id.`, { details: { field } });
    return m.conditionId;
  }

  /** The event's action name and its market (checked), without running it. */
  private actionOf(e: ScenarioEvent, index: number): { name: string; conditionId: string | undefined } {
    const name = Object.keys(e).find((k) => k !== 'at')!;
    const body = (e as unknown as Record<string, { market?: number | string }>)[name]!;
    return { name, conditionId: body.market === undefined ? undefined : this.marketOf(body.market, `events.${index}.${name}.market`) };
  }

  /**
   * Every `participants` event names a role or a participant its market has (or will have: a whale
   * of an earlier whale event of the scenario); an unknown one is a 400 before anything runs, not a
   * failed step later.
   */
  private checkParticipants(scenario: Scenario): void {
    const roles = new Set(['marketMaker', 'noise', 'informed', 'whale', 'news']);
    const whales = new Map<string, number>();
    scenario.events.forEach((e, i) => {
      if ('whale' in e) {
        const cid = this.actionOf(e, i).conditionId!;
        whales.set(cid, (whales.get(cid) ?? 0) + 1);
      }
      if (!('participants' in e) || roles.has(e.participants.who)) return;
      const cid = this.actionOf(e, i).conditionId!;
      const names = this.ctx.sim.list().find((m) => m.conditionId === cid)?.participants.map((p) => p.name) ?? [];
      const existing = names.filter((n) => n.startsWith('whale-')).length;
      for (let n = 1; n <= existing + (whales.get(cid) ?? 0); n++) names.push(`whale-${n}`);
      if (!names.includes(e.participants.who)) {
        const field = `events.${i}.participants.who`;
        throw new ApiError('invalid_field', `Field '${field}' names no participant of market ${JSON.stringify(e.participants.market)}: '${String(e.participants.who).slice(0, 80)}'. Use a role (${[...roles].join(', ')}) or a name: ${[...new Set(names)].join(', ') || 'the market has no participants; list it in markets'}.`, {
          details: { field, in: 'body', problem: 'names no participant' },
        });
      }
    });
  }

  private async apply(e: ScenarioEvent, index: number, progress: ScenarioProgress): Promise<void> {
    const { name, conditionId } = this.actionOf(e, index);
    const cid = conditionId!;
    const sim = this.ctx.sim;
    try {
      if ('participants' in e) {
        const a = e.participants;
        await sim.configure(cid, a.who, { ...(a.enabled !== undefined ? { enabled: a.enabled } : {}), ...(a.intensity !== undefined ? { intensity: a.intensity } : {}), ...(a.latencyMs !== undefined ? { latencyMs: a.latencyMs } : {}), ...(a.knobs ? { knobs: a.knobs } : {}) });
      } else if ('sim' in e) {
        if (e.sim.enabled) await sim.enableMarket(cid);
        else await sim.disableMarket(cid);
      } else if ('shock' in e) sim.shock(cid, priceOf(e.shock.price));
      else if ('truth' in e) sim.setTruth(cid, priceOf(e.truth.price));
      else if ('spread' in e) await sim.configure(cid, 'marketMaker', { knobs: { halfSpreadTicks: e.spread.halfSpreadTicks } });
      else if ('whale' in e) await sim.addWhale(cid, { ...e.whale, limit: priceOf(e.whale.limit) });
      else if ('tickSize' in e) await this.ctx.markets.setTickSize(cid, parseUnits(e.tickSize.tickSize)!);
      else if ('pause' in e) await this.ctx.markets.pause(conditionId);
      else if ('resume' in e) await this.ctx.markets.resume(conditionId);
      else if ('resolve' in e) await this.ctx.markets.resolve(cid, e.resolve.winningOutcomeIndex);
      progress.steps.push({ at: e.at, action: name, ok: true });
    } catch (err) {
      progress.steps.push({ at: e.at, action: name, ok: false, error: `events.${index}.${name}: ${(err as Error).message}` });
    }
    progress.eventsDone++;
  }
}

function priceOf(text: string): number {
  return Number(parseUnits(text));
}
