import type { EngineConfig } from '../config.js';
import { ApiError } from '../protocol/errors.js';

type Headers = Record<string, string | string[] | undefined>;

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** The host name of a Host header or an origin's authority, lower-case, without the port. */
function hostName(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith('[')) return a.slice(0, a.indexOf(']') + 1);
  const colon = a.lastIndexOf(':');
  return colon >= 0 ? a.slice(0, colon) : a;
}

/**
 * Who may talk to the engine, checked on every request before anything else (rate limits, body
 * parsing, routes) and on WebSocket upgrades:
 * - the Host must name this machine (loopback names or the configured host): a DNS-rebinding page
 *   (evil.example resolving to 127.0.0.1) sends its own name and gets 421;
 * - a browser's Origin, when present, must be the engine's own (or one the operator allowed, e.g. a
 *   Vite dev server): a cross-site page gets 403 before its body is read. Requests without Origin (bots,
 *   curl, Node clients) pass, as a same-origin GET does.
 * CORS stays closed: no Access-Control-Allow-Origin is ever sent.
 */
export class RequestGuard {
  private port: number | undefined;
  private readonly names: Set<string>;
  private readonly extraOrigins: Set<string>;

  constructor(config: Pick<EngineConfig, 'host' | 'allowedOrigins'>) {
    const configured = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
    this.names = new Set([...LOOPBACK_NAMES, configured.toLowerCase()]);
    this.extraOrigins = new Set((config.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, '')));
  }

  /** The port the engine listens on: an Origin must carry it to be the engine's own. */
  listening(port: number): void {
    this.port = port;
  }

  /** undefined when the request may go on, else the error to answer. */
  check(headers: Headers): ApiError | undefined {
    const host = one(headers.host);
    if (host !== undefined && !this.names.has(hostName(host))) {
      return new ApiError('misdirected_host', `This exchange answers to ${[...this.names].join(', ')} only, not the Host '${host.slice(0, 100)}' (a page using another name for this machine is refused: DNS rebinding). Use http://127.0.0.1:${this.port ?? 'PORT'}.`);
    }
    const origin = one(headers.origin);
    if (origin === undefined) return undefined;
    if (this.isOwnOrigin(origin)) return undefined;
    return new ApiError('cross_origin_refused', `Requests from the web page at ${origin.slice(0, 100)} are refused: only the terminal served by this engine may call it from a browser. Bots and scripts send no Origin; a development server can be allowed with the engine's allowedOrigins setting.`);
  }

  private isOwnOrigin(origin: string): boolean {
    const o = origin.toLowerCase().replace(/\/$/, '');
    if (this.extraOrigins.has(o)) return true;
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      return false; // "null" (sandboxed frames, file://) and anything unparsable
    }
    if (url.protocol !== 'http:' && url.protocol !== 'ws:') return false;
    if (!this.names.has(url.hostname.toLowerCase())) return false;
    return this.port === undefined || Number(url.port || 80) === this.port;
  }
}
