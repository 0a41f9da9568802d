import type { ShownError } from './terminalApi.js';

/**
 * Turns whatever a call threw into status + code + message. The client library's errors carry the
 * server body ({error, message}); network failures and local validation errors get their own codes.
 */
export function describeError(e: unknown): ShownError {
  if (e && typeof e === 'object') {
    const o = e as Record<string, unknown>;
    const body = (o.body && typeof o.body === 'object' ? o.body : undefined) as Record<string, unknown> | undefined;
    const status = typeof o.status === 'number' ? o.status : typeof o.statusCode === 'number' ? o.statusCode : undefined;
    const code = firstString(o.code, body?.error, o.error, body?.error_code);
    const message = firstString(body?.message, body?.error_msg, o.serverMessage, o.message);
    if (code || status) {
      return { status, code: code ?? `http_${status}`, message: message ?? 'The server refused the request.' };
    }
    if (e instanceof TypeError && /fetch|network/i.test(e.message)) {
      return { code: 'network_error', message: 'The exchange engine is not reachable. Is it still running?' };
    }
    if (e instanceof Error) return { code: e.name === 'Error' ? 'client_error' : e.name, message: e.message };
  }
  return { code: 'error', message: String(e) };
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** True when a data route is simply not there yet (404 not_found): panels render a quiet placeholder. */
export function isMissingRoute(e: unknown): boolean {
  const d = describeError(e);
  return d.status === 404 && d.code === 'not_found';
}
