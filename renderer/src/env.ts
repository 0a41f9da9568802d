/**
 * Where the three services live. The terminal is served by the engine itself at /app/ (also inside the
 * desktop app), so every service shares its origin (decisions §0).
 */
export interface ServiceUrls {
  trading: string;
  relayer: string;
  data: string;
}

export function serviceUrlsFor(origin: string): ServiceUrls {
  const base = origin.replace(/\/+$/, '');
  return { trading: base, relayer: `${base}/relayer`, data: `${base}/data-api` };
}

export const SERVICES: ServiceUrls = serviceUrlsFor(typeof window === 'undefined' ? 'http://127.0.0.1' : window.location.origin);
