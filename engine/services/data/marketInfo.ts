/**
 * Market metadata as the data API's rows carry it (data-api.md §4, §9.1), from the one market registry.
 * The local registry has no separate event records or images: `icon` is "" and an event's slug is the
 * slug of its oldest market (the public service's single-market events use the market slug too).
 */
import type { DataDeps } from './dataDeps.js';
import type { Market } from '../markets/marketService.js';

export interface MarketInfo {
  readonly market: Market | undefined;
  readonly conditionId: string;
  readonly title: string;
  readonly slug: string;
  readonly icon: string;
  readonly eventSlug: string;
  readonly eventId: string;
  readonly negativeRisk: boolean;
  /** Winning outcome index once resolved. */
  readonly winner: 0 | 1 | null;
  /** `YYYY-MM-DD` (positions) and `YYYY-MM-DDTHH:MM:SSZ` (closed positions); "" when open-ended. */
  readonly endDay: string;
  readonly endDateTime: string;
  outcome(index: number): string;
  tokenId(index: number): string;
}

/** The market fields every data API row carries (schemas/data.ts `marketFields`), in wire order. */
export function marketFields(info: MarketInfo): { title: string; slug: string; icon: string; eventSlug: string } {
  return { title: info.title, slug: info.slug, icon: info.icon, eventSlug: info.eventSlug };
}

/** A position's outcome and the other outcome of its (binary) market, in wire order. */
export function outcomeFields(info: MarketInfo, outcomeIndex: number) {
  const opposite = 1 - outcomeIndex;
  return { outcome: info.outcome(outcomeIndex), outcomeIndex, oppositeOutcome: info.outcome(opposite), oppositeAsset: info.tokenId(opposite) };
}

export class MarketDirectory {
  private readonly cache = new Map<string, MarketInfo>();
  private eventSlugs: Map<number, string> | undefined;

  constructor(private readonly ctx: Pick<DataDeps, 'markets'>) {}

  info(conditionId: string): MarketInfo {
    const key = conditionId.toLowerCase();
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.build(key, this.ctx.markets.byCondition(key));
      this.cache.set(key, hit);
    }
    return hit;
  }

  /** Condition ids of the markets in these events, in registry order. */
  conditionsOfEvents(eventIds: readonly string[]): string[] {
    const wanted = new Set(eventIds);
    return this.ctx.markets
      .list()
      .filter((m) => wanted.has(String(m.eventId)))
      .map((m) => m.conditionId.toLowerCase());
  }

  private eventSlug(eventId: number): string {
    if (!this.eventSlugs) {
      this.eventSlugs = new Map();
      for (const m of this.ctx.markets.list()) if (!this.eventSlugs.has(m.eventId)) this.eventSlugs.set(m.eventId, m.slug);
    }
    return this.eventSlugs.get(eventId) ?? '';
  }

  private build(conditionId: string, m: Market | undefined): MarketInfo {
    const end = m?.endDate ? new Date(m.endDate) : undefined;
    const valid = end !== undefined && !Number.isNaN(end.getTime());
    return {
      market: m,
      conditionId,
      title: m?.question ?? '',
      slug: m?.slug ?? '',
      icon: '',
      eventSlug: m ? this.eventSlug(m.eventId) : '',
      eventId: m ? String(m.eventId) : '',
      negativeRisk: m?.negRisk ?? false,
      winner: m?.winner ?? null,
      endDay: valid ? end.toISOString().slice(0, 10) : '',
      endDateTime: valid ? end.toISOString().replace(/\.\d{3}Z$/, 'Z') : '',
      outcome: (i) => (m && (i === 0 || i === 1) ? m.outcomes[i] : ''),
      tokenId: (i) => (m && (i === 0 || i === 1) ? m.tokenIds[i] : ''),
    };
  }
}
