/** A non-2xx answer of the exchange: the HTTP status plus the `{error, message}` body (decisions §1). */
export class ClientHttpError extends Error {
  readonly status: number;
  /** The stable error code (`error` of the body), or `http_<status>` when the body had none. */
  readonly code: string;
  /** The parsed body (whatever JSON the server sent, e.g. a rejected placement result). */
  readonly body: unknown;
  readonly method: string;
  readonly url: string;

  constructor(opts: { status: number; body: unknown; method: string; url: string }) {
    const b = opts.body as { error?: unknown; message?: unknown } | null;
    const code = b && typeof b === 'object' && typeof b.error === 'string' ? b.error : `http_${opts.status}`;
    const message = b && typeof b === 'object' && typeof b.message === 'string' ? b.message : typeof opts.body === 'string' ? opts.body : '';
    super(`${opts.method} ${opts.url} → ${opts.status} ${code}${message ? `: ${message}` : ''}`);
    this.name = 'ClientHttpError';
    this.status = opts.status;
    this.code = code;
    this.body = opts.body;
    this.method = opts.method;
    this.url = opts.url;
  }
}

/** Thrown before any request when order parameters cannot make a valid order (bad price, tick, size). */
export class OrderBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OrderBuildError';
  }
}
