/** Reads authentication headers: names case-insensitive; POLY_* aliases in the compatibility profile. */

export type HeaderBag = Record<string, string | string[] | undefined>;

export type AuthHeaderName = 'ADDRESS' | 'SIGNATURE' | 'TIMESTAMP' | 'NONCE' | 'API_KEY' | 'PASSPHRASE' | 'REFERRAL';

const SERVICE = (n: AuthHeaderName) => `service_${n.toLowerCase()}`;
const POLY = (n: AuthHeaderName) => `poly_${n.toLowerCase()}`;

function lookup(headers: HeaderBag, lowerName: string): string | undefined {
  // Node already lower-cases incoming header names; the scan covers callers passing other casings.
  let v = headers[lowerName];
  if (v === undefined) {
    for (const k in headers) {
      if (k.length === lowerName.length && k.toLowerCase() === lowerName) {
        v = headers[k];
        break;
      }
    }
  }
  if (Array.isArray(v)) v = v[0];
  return v === undefined || v === '' ? undefined : v;
}

export function readAuthHeader(headers: HeaderBag, name: AuthHeaderName, compat: boolean): string | undefined {
  const v = lookup(headers, SERVICE(name));
  if (v !== undefined || !compat) return v;
  return lookup(headers, POLY(name));
}

/** The public header name, for messages. */
export function headerLabel(name: AuthHeaderName): string {
  return `SERVICE_${name}`;
}
