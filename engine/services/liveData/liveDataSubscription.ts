import { isServedTopic, SERVED_TYPES, UNSERVED_TOPICS, type ServedTopic } from './liveDataTopics.js';

/** One parsed entry of a subscribe message's `subscriptions`. */
export interface LiveDataSubscription {
  topic: ServedTopic;
  /** A served type of the topic, or '*'. */
  type: string;
  /** activity: slugs to match (event or market); null = every trade. */
  slugs: { event?: string; market?: string } | null;
  /** clob_market: token ids; null = every market. */
  tokens: string[] | null;
  /** clob_user: the L2 credentials. */
  auth?: { key: string; secret: string; passphrase: string };
}

/** Whether the subscription takes messages of `type`. */
export function wants(sub: LiveDataSubscription, type: string): boolean {
  return sub.type === '*' || sub.type === type;
}

/** Same topic, type and filter: an unsubscribe of `b` removes `a`. */
export function sameSubscription(a: LiveDataSubscription, b: LiveDataSubscription): boolean {
  return a.topic === b.topic && a.type === b.type && JSON.stringify(a.slugs) === JSON.stringify(b.slugs) && JSON.stringify(a.tokens) === JSON.stringify(b.tokens);
}

/** Parses one `subscriptions[]` entry as the stock client sends it, or returns the sentence saying what is wrong. */
export function parseSubscription(raw: unknown): LiveDataSubscription | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'each subscription must be an object {"topic","type","filters"?}';
  const r = raw as Record<string, unknown>;
  const topic = r.topic;
  if (typeof topic !== 'string') return "each subscription needs a 'topic' string (activity, clob_market or clob_user)";
  if (!isServedTopic(topic)) {
    const why = UNSERVED_TOPICS[topic];
    return why ? `topic '${topic}' is not served here: ${why}. Served topics: activity, clob_market, clob_user.` : `unknown topic '${topic.slice(0, 40)}'; served topics: activity, clob_market, clob_user`;
  }
  const type = r.type ?? '*';
  const types: readonly string[] = SERVED_TYPES[topic];
  if (typeof type !== 'string' || (type !== '*' && !types.includes(type))) return `topic '${topic}' has types ${types.join(', ')} (or "*"); got ${JSON.stringify(type).slice(0, 40)}`;
  const filters = r.filters;
  if (filters !== undefined && filters !== null && typeof filters !== 'string') return "'filters' must be a JSON string, as the client sends it";
  let parsed: unknown = undefined;
  if (typeof filters === 'string' && filters.trim() !== '') {
    try {
      parsed = JSON.parse(filters);
    } catch {
      return `'filters' is not JSON: ${filters.slice(0, 60)}`;
    }
  }
  const sub: LiveDataSubscription = { topic, type, slugs: null, tokens: null };
  if (topic === 'activity' && parsed !== undefined) {
    const f = parsed as Record<string, unknown>;
    if (typeof f !== 'object' || f === null || (typeof f.event_slug !== 'string' && typeof f.market_slug !== 'string')) return `activity filters are {"event_slug":"…"} or {"market_slug":"…"}; got ${filters}`;
    sub.slugs = { ...(typeof f.event_slug === 'string' ? { event: f.event_slug } : {}), ...(typeof f.market_slug === 'string' ? { market: f.market_slug } : {}) };
  }
  if (topic === 'clob_market' && parsed !== undefined) {
    if (!Array.isArray(parsed) || parsed.some((t) => typeof t !== 'string')) return `clob_market filters are a JSON array of token ids, e.g. ["123","456"]; got ${filters}`;
    sub.tokens = parsed as string[];
  }
  if (topic === 'clob_user') {
    const a = r.clob_auth as Record<string, unknown> | undefined;
    if (typeof a !== 'object' || a === null || typeof a.key !== 'string' || typeof a.secret !== 'string' || typeof a.passphrase !== 'string') {
      return "clob_user needs 'clob_auth': {\"key\",\"secret\",\"passphrase\"} (the L2 credentials of POST /auth/api-key)";
    }
    sub.auth = { key: a.key, secret: a.secret, passphrase: a.passphrase };
  }
  return sub;
}
