import { ApiError } from '../../../protocol/errors.js';
import { feeScheduleFromBps, type FeeSchedule } from '../../../protocol/feeSchedule.js';
import type { Clock } from '../../clock.js';
import type { PublicCatalogueEntry, PublicMarketIdentity } from '../mirrorTypes.js';
import { catalogueEntryOf, identityFromClob, identityFromGamma, isConditionId } from './publicIdentity.js';
import { RequestBudget, UPSTREAM_BUDGET, type BudgetLimits } from './requestBudget.js';

/**
 * REST to the public services (reference §1, §2): the CLOB for a market's trading state and book, Gamma for
 * slugs, events, fee schedules and the catalogue search. Every failure is an ApiError: `mirror_not_found`
 * (404: no such market) or `upstream_unavailable` (502: down, slow, over budget, malformed).
 */
export interface UpstreamClientOptions {
  /** `--upstream-clob`, e.g. https://clob.polymarket.com */
  readonly clobBase: string;
  /** `--upstream-gamma`, e.g. https://gamma-api.polymarket.com */
  readonly gammaBase: string;
  /** Per request, including any wait for the budget (default 10 s). */
  readonly timeoutMs?: number;
  /** Per host (default UPSTREAM_BUDGET: 100 per 10 s, below every public limit). */
  readonly budget?: BudgetLimits;
  /** Wall clock for the budget (default: system). */
  readonly wallClock?: Clock;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
/** A browser-like agent: a default HTTP agent was once refused by the public CDN with 403 1010 (reference §2.8). */
export const UPSTREAM_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) sandbox-exchange-mirror/1.0 (paper trading; +https://github.com)';
const MAX_SEARCH_LIMIT = 50;

export class UpstreamClient {
  private readonly clob: string;
  private readonly gamma: string;
  private readonly timeoutMs: number;
  private readonly budgets = new Map<string, RequestBudget>();

  constructor(private readonly opts: UpstreamClientOptions) {
    this.clob = opts.clobBase.replace(/\/+$/, '');
    this.gamma = opts.gammaBase.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  }

  /**
   * A public market by condition id (CLOB alone suffices; Gamma adds the fee schedule when it answers),
   * slug (market or event) or polymarket.com URL (`/event/<event>[/<market>]`, `/market/<slug>`).
   */
  async resolveMarket(ref: string): Promise<PublicMarketIdentity> {
    const r = ref.trim();
    if (isConditionId(r)) return this.byConditionId(r);
    if (/^https?:\/\//i.test(r)) return this.byUrl(r);
    if (/^[a-z0-9][a-z0-9-]{0,200}$/i.test(r)) return this.bySlug(r);
    throw new ApiError('mirror_not_found', `'${clip(r)}' is neither a condition id (0x + 64 hex), a slug (letters, digits, dashes) nor a polymarket.com URL. Search with GET /admin/mirrors/search?q=<words>.`);
  }

  /** Gamma `/public-search`: binary markets with a deployed condition id, at most `limit` (1..50). */
  async search(q: string, limit = 20): Promise<PublicCatalogueEntry[]> {
    const words = q.trim();
    if (!words) return [];
    const n = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit) || 20));
    const body = await this.getJson(this.gamma, `/public-search?q=${encodeURIComponent(words)}&limit_per_type=${n}&keep_closed_markets=0`);
    if (!isObj(body)) throw malformed('public-search', 'not an object');
    const events = Array.isArray(body.events) ? body.events : [];
    const out: PublicCatalogueEntry[] = [];
    for (const ev of events) {
      if (!isObj(ev) || !Array.isArray(ev.markets)) continue;
      const title = typeof ev.title === 'string' ? ev.title : '';
      for (const m of ev.markets) {
        const entry = catalogueEntryOf(m, title);
        if (entry && !out.some((e) => e.conditionId === entry.conditionId)) out.push(entry);
        if (out.length >= n) return out;
      }
    }
    return out;
  }

  /** `GET /book?token_id=` as received (the decoder checks it). */
  book(tokenId: string): Promise<unknown> {
    return this.getJson(this.clob, `/book?token_id=${encodeURIComponent(tokenId)}`, `The public exchange has no order book for token ${clip(tokenId)} (closed, resolved or never booked).`);
  }

  /** `GET /markets/{condition_id}` as received (the decoder reads close and resolution from it). */
  market(conditionId: string): Promise<unknown> {
    return this.getJson(this.clob, `/markets/${encodeURIComponent(conditionId)}`, `The public exchange has no market ${clip(conditionId)}.`);
  }

  /** `GET /fee-rate?token_id=` → basis points (an integer, sometimes sent as a string). */
  async feeRateBps(tokenId: string): Promise<number> {
    const body = await this.getJson(this.clob, `/fee-rate?token_id=${encodeURIComponent(tokenId)}`);
    const v = isObj(body) ? body.base_fee : undefined;
    const bps = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,5}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw malformed('fee-rate', `base_fee ${JSON.stringify(v)} is not basis points`);
    return bps;
  }

  private async byConditionId(cid: string): Promise<PublicMarketIdentity> {
    const clob = await this.market(cid);
    // The CLOB market has no fee schedule: Gamma's when it answers, else the /fee-rate bps (decisions §10).
    const gamma = await this.gammaByConditionId(cid).catch(() => undefined);
    let fee: FeeSchedule | undefined = gamma?.feeSchedule;
    if (!fee) {
      const tokens = isObj(clob) && Array.isArray(clob.tokens) ? clob.tokens : [];
      const first = isObj(tokens[0]) && typeof tokens[0].token_id === 'string' ? tokens[0].token_id : '';
      fee = first ? feeScheduleFromBps(await this.feeRateBps(first)) : feeScheduleFromBps(0);
    }
    const built = identityFromClob(clob, fee);
    if ('problem' in built) throw malformed(`markets/${cid}`, built.problem);
    // Gamma knows the slug and image the CLOB may leave empty; the CLOB stays the authority on trading fields.
    return gamma ? Object.freeze({ ...built, slug: built.slug || gamma.slug, image: built.image || gamma.image }) : built;
  }

  private async gammaByConditionId(cid: string): Promise<PublicMarketIdentity | undefined> {
    // Gamma filters drop closed markets unless closed=true (reference §1.1), which in turn may keep only closed ones.
    for (const closed of ['&closed=true', '']) {
      const list = await this.getJson(this.gamma, `/markets?condition_ids=${encodeURIComponent(cid)}${closed}`);
      const m = Array.isArray(list) ? list.find((x) => isObj(x) && typeof x.conditionId === 'string' && x.conditionId.toLowerCase() === cid.toLowerCase()) : undefined;
      if (m) {
        const built = identityFromGamma(m);
        return 'problem' in built ? undefined : built;
      }
    }
    return undefined;
  }

  private async bySlug(slug: string): Promise<PublicMarketIdentity> {
    let market: unknown;
    try {
      market = await this.getJson(this.gamma, `/markets/slug/${encodeURIComponent(slug)}`, '');
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'mirror_not_found') throw e;
      return this.byEventSlug(slug); // people paste event slugs as often as market slugs
    }
    const built = identityFromGamma(market);
    if ('problem' in built) throw malformed(`markets/slug/${slug}`, built.problem);
    return built;
  }

  private async byEventSlug(slug: string): Promise<PublicMarketIdentity> {
    const event = await this.getJson(this.gamma, `/events/slug/${encodeURIComponent(slug)}`, `No public market or event has the slug '${clip(slug)}'. Search with GET /admin/mirrors/search?q=<words>.`);
    const markets = isObj(event) && Array.isArray(event.markets) ? event.markets.filter(isObj) : [];
    const open = markets.filter((m) => m.closed !== true);
    const candidates = open.length > 0 ? open : markets;
    if (candidates.length === 1) {
      const built = identityFromGamma(candidates[0]);
      if ('problem' in built) throw malformed(`events/slug/${slug}`, built.problem);
      return built;
    }
    const slugs = candidates.map((m) => m.slug).filter((s): s is string => typeof s === 'string');
    if (slugs.length === 0) throw new ApiError('mirror_not_found', `The public event '${clip(slug)}' has no markets.`);
    throw new ApiError('mirror_not_found', `The public event '${clip(slug)}' has ${slugs.length} markets; mirror one of them by its slug: ${slugs.slice(0, 20).join(', ')}${slugs.length > 20 ? ', …' : ''}.`, { details: { markets: slugs } });
  }

  private async byUrl(url: string): Promise<PublicMarketIdentity> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new ApiError('mirror_not_found', `'${clip(url)}' is not a valid URL.`);
    }
    const host = u.hostname.toLowerCase();
    // Paths: /event/<event>[/<market>], /market/<market>, optionally behind a locale (/es/event/…).
    const parts = u.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    if (parts[0] && /^[a-z]{2}(-[a-z]{2})?$/i.test(parts[0]) && (parts[1] === 'event' || parts[1] === 'market')) parts.shift();
    if (host === 'polymarket.com' || host.endsWith('.polymarket.com')) {
      if (parts[0] === 'event' && parts[2]) return this.bySlug(parts[2]);
      if (parts[0] === 'event' && parts[1]) return this.byEventSlug(parts[1]);
      if (parts[0] === 'market' && parts[1]) return this.bySlug(parts[1]);
    }
    throw new ApiError('mirror_not_found', `'${clip(url)}' is not a polymarket.com event or market URL (https://polymarket.com/event/<event>[/<market>]).`);
  }

  private budgetOf(base: string): RequestBudget {
    let b = this.budgets.get(base);
    if (!b) this.budgets.set(base, (b = new RequestBudget(this.opts.budget ?? UPSTREAM_BUDGET, this.opts.wallClock)));
    return b;
  }

  /** One GET within the host's budget and the timeout. `notFound` set: a 404 is `mirror_not_found` with it. */
  private async getJson(base: string, path: string, notFound?: string): Promise<unknown> {
    const started = Date.now();
    const budget = this.budgetOf(base);
    if (!(await budget.acquire(this.timeoutMs))) {
      throw new ApiError('upstream_unavailable', `The mirror's request budget to ${base} (${budget.limits.requests} per ${budget.limits.windowMs / 1000} s, below the public limits) is used up; retry in a few seconds.`);
    }
    const url = base + path;
    let res: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(Math.max(1, this.timeoutMs - (Date.now() - started)));
      res = await fetch(url, { headers: { 'user-agent': UPSTREAM_USER_AGENT, accept: 'application/json' }, signal });
      text = await res.text();
    } catch (e) {
      const why = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError') ? `no answer within ${this.timeoutMs} ms` : `unreachable (${causeOf(e)})`;
      throw new ApiError('upstream_unavailable', `GET ${url}: ${why}. Check the upstream URL and the network, then retry.`);
    }
    if (res.status === 404 && notFound !== undefined) throw new ApiError('mirror_not_found', notFound || `GET ${url} → 404: the public service has no such market.`);
    if (!res.ok) throw new ApiError('upstream_unavailable', `GET ${url} → HTTP ${res.status}${res.status === 429 ? ' (rate limited)' : ''}: ${clip(text)}. Retry later.`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ApiError('upstream_unavailable', `GET ${url} answered non-JSON: ${clip(text)}`);
    }
  }
}

function malformed(route: string, problem: string): ApiError {
  return new ApiError('upstream_unavailable', `The public service answered ${route} with a market this exchange cannot mirror: ${problem}.`);
}

function causeOf(e: unknown): string {
  const c = e instanceof Error ? ((e as Error & { cause?: unknown }).cause ?? e) : e;
  return c instanceof Error ? ((c as Error & { code?: string }).code ?? c.message) : String(c);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clip(s: string): string {
  return s.length > 120 ? s.slice(0, 117) + '...' : s;
}
