import { ClientHttpError } from './clientHttpError.js';

/**
 * One JSON request to the engine, with the operator token when `operatorToken` is given: the answer
 * parsed, a non-2xx thrown as ClientHttpError. Isomorphic (fetch only).
 */
export async function jsonCall<R>(fetchImpl: typeof fetch, baseUrl: string, method: string, path: string, body?: unknown, operatorToken?: string): Promise<R> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (operatorToken !== undefined) headers.authorization = `Bearer ${operatorToken}`;
  const url = baseUrl.replace(/\/+$/, '') + path;
  const res = await fetchImpl(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const parsed: unknown = text === '' ? text : JSON.parse(text);
  if (!res.ok) throw new ClientHttpError({ status: res.status, body: parsed, method, url });
  return parsed as R;
}
