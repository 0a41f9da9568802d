import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PublicMarketIdentity } from '../services/mirror/mirrorTypes.js';

/**
 * The public Gamma service of the mirror tests: the recorded answers of fixtures/gamma/ served by a small
 * local node:http server (`/markets/slug/{slug}`, `/events/slug/{slug}`, `/markets?condition_ids=`,
 * `/public-search?q=`). With `upstream` set, the "fed-cut-25-bps-july-2026" leg is served with that
 * market's condition id, question id, token ids, tick, minimum size and neg-risk flag, so what a test
 * resolves through Gamma is the upstream kit's live market.
 */
export const GAMMA_FIXTURE_SLUG = 'fed-cut-25-bps-july-2026';
export const GAMMA_FIXTURE_EVENT_SLUG = 'fed-decision-in-july';
const FIXTURE_CONDITION_ID = '0xa9c1f6bd36a83f0c5a7dcb57865ea1edd84f80171090947043117e1098be9fe8';

type Obj = Record<string, unknown>;
const load = (name: string): Obj => JSON.parse(readFileSync(new URL(`./fixtures/gamma/${name}`, import.meta.url), 'utf8')) as Obj;

export class GammaKit {
  base = '';
  /** Every request path (with query) served, in order. */
  readonly requests: string[] = [];
  /** Answer the next N requests with this status (e.g. 503), to test upstream failures. */
  failNext: { status: number; times: number } | undefined;
  private readonly market: Obj;
  private readonly event: Obj;
  private readonly search: Obj;

  private constructor(
    private readonly server: Server,
    upstream: PublicMarketIdentity | undefined,
  ) {
    const patch = (v: Obj): Obj => (upstream ? substitute(v, upstream) : v);
    this.market = patch(load('market-slug.json'));
    this.event = patch(load('event-slug.json'));
    this.search = patch(load('public-search.json'));
  }

  static async start(upstream?: PublicMarketIdentity): Promise<GammaKit> {
    const server = createServer();
    const kit = new GammaKit(server, upstream);
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://gamma.local');
      kit.requests.push(url.pathname + url.search);
      const [status, body] = kit.answer(url);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kit.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return kit;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private answer(url: URL): [number, unknown] {
    if (this.failNext && this.failNext.times > 0) {
      this.failNext.times--;
      return [this.failNext.status, { error: 'upstream test failure' }];
    }
    const legs = this.event.markets as Obj[];
    const path = decodeURIComponent(url.pathname);
    let m: RegExpExecArray | null;
    if ((m = /^\/markets\/slug\/([^/]+)$/.exec(path))) {
      if (m[1] === this.market.slug) return [200, this.market];
      const leg = legs.find((l) => l.slug === m![1]);
      return leg ? [200, leg] : [404, { type: 'not found error', error: 'id not found' }];
    }
    if ((m = /^\/events\/slug\/([^/]+)$/.exec(path))) {
      return m[1] === this.event.slug ? [200, this.event] : [404, { type: 'not found error', error: 'id not found' }];
    }
    if (path === '/markets') {
      const ids = url.searchParams.getAll('condition_ids').flatMap((s) => s.split(',')).map((s) => s.toLowerCase());
      // Gamma's trap (reference §1.1): without closed=true, closed markets are silently left out.
      const withClosed = url.searchParams.get('closed') === 'true';
      return [200, legs.filter((l) => ids.includes(String(l.conditionId).toLowerCase()) && (withClosed || l.closed !== true))];
    }
    if (path === '/public-search') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const text = JSON.stringify([this.event.title, legs.map((l) => l.question)]).toLowerCase();
      const hit = q.length > 0 && q.every((w) => text.includes(w));
      return [200, hit ? this.search : { events: [], pagination: { hasMore: false, totalResults: 0 } }];
    }
    return [404, { type: 'not found error', error: 'route not found' }];
  }
}

/** The fixture leg with the upstream market's identity; JSON-in-JSON fields stay JSON text. */
function substitute(v: Obj, id: PublicMarketIdentity): Obj {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x !== 'object' || x === null) return x;
    const o = Object.fromEntries(Object.entries(x).map(([k, val]) => [k, walk(val)]));
    if (o.conditionId !== FIXTURE_CONDITION_ID) return o;
    return {
      ...o,
      conditionId: id.conditionId,
      questionID: id.questionId,
      clobTokenIds: `["${id.tokenIds[0]}", "${id.tokenIds[1]}"]`,
      orderPriceMinTickSize: id.tickSize / 1e6,
      orderMinSize: id.minOrderSize / 1e6,
      negRisk: id.negRisk,
      negRiskMarketID: id.negRiskMarketId,
    };
  };
  return walk(v) as Obj;
}
