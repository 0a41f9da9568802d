import { ClientHttpError } from './clientHttpError.js';

export interface OperatorCallContext {
  readonly baseUrl: string;
  readonly operatorToken?: string | undefined;
  readonly fetchImpl: typeof fetch;
  /** Names the controls in the error thrown when the token is missing ("Simulation controls", "Mirrors"). */
  readonly what: string;
}

/**
 * One JSON call to the engine for the isomorphic operator clients (simulation, mirrors): the operator
 * token as a bearer when `operator`, the body as JSON, a non-2xx answer thrown as ClientHttpError.
 */
export async function operatorCall<R>(ctx: OperatorCallContext, method: string, path: string, body?: unknown, operator = true): Promise<R> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (operator) {
    if (!ctx.operatorToken) throw new Error(`${ctx.what} need the operator token (printed in the ready line as operatorToken).`);
    headers.authorization = `Bearer ${ctx.operatorToken}`;
  }
  const url = ctx.baseUrl.replace(/\/+$/, '') + path;
  const res = await ctx.fetchImpl(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const parsed: unknown = text === '' ? text : JSON.parse(text);
  if (!res.ok) throw new ClientHttpError({ status: res.status, body: parsed, method, url });
  return parsed as R;
}
