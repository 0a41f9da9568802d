import { buildL2Signature } from '../protocol/hmac.js';

export interface ApiCredentials {
  key: string;
  secret: string;
  passphrase: string;
}

export interface L2Headers {
  SERVICE_ADDRESS: string;
  SERVICE_SIGNATURE: string;
  SERVICE_TIMESTAMP: string;
  SERVICE_API_KEY: string;
  SERVICE_PASSPHRASE: string;
  [name: string]: string;
}

export interface L2RequestArgs {
  method: string;
  /** Path relative to the service base URL, without the query string (e.g. `/order`, `/submit`). */
  path: string;
  /** The exact body text that will be sent (compact JSON.stringify); omit without a body. */
  body?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
}

/** Headers of an L2 request: the HMAC over timestamp + METHOD + path + body (decisions §2). */
export function createL2Headers(creds: ApiCredentials, address: string, req: L2RequestArgs): L2Headers {
  const timestamp = req.timestamp ?? Math.floor(Date.now() / 1000);
  const path = req.path.split('?')[0]!;
  return {
    SERVICE_ADDRESS: address,
    SERVICE_SIGNATURE: buildL2Signature(creds.secret, timestamp, req.method.toUpperCase(), path, req.body),
    SERVICE_TIMESTAMP: String(timestamp),
    SERVICE_API_KEY: creds.key,
    SERVICE_PASSPHRASE: creds.passphrase,
  };
}
