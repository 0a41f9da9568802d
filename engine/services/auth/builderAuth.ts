import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../protocol/errors.js';
import { l2Message, normalizeBase64Signature } from '../../protocol/hmac.js';
import { AuthRepo } from '../../store/authRepo.js';
import type { Infra } from '../infra.js';
import { hmacSha256Base64Url } from '../crypto/hmacSha256.js';
import { deriveCredentials } from './deriveCredentials.js';
import type { HeaderBag } from './authHeaders.js';
import type { L2Request } from './authService.js';

/** The builder that signed a relayer request: the API key used and the address that owns it. */
export interface BuilderIdentity {
  apiKey: string;
  /** Lower-case owner address of the API key (the builder, not the user: the user is the tx signer). */
  address: `0x${string}`;
}

const BUILDER_HEADERS = ['POLY_BUILDER_API_KEY', 'POLY_BUILDER_PASSPHRASE', 'POLY_BUILDER_SIGNATURE', 'POLY_BUILDER_TIMESTAMP'] as const;
type BuilderHeader = (typeof BUILDER_HEADERS)[number];
const SECONDS_RE = /^\d{1,15}$/;

function header(h: HeaderBag, name: BuilderHeader): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : (v ?? undefined);
}

/** Whether a request carries builder headers (any of them), so the relayer should verify it as a builder's. */
export function hasBuilderHeaders(h: HeaderBag): boolean {
  return BUILDER_HEADERS.some((n) => header(h, n) !== undefined);
}

/**
 * Builder-header authentication of the compatibility profile (decisions §6): the stock
 * @polymarket/builder-relayer-client signs each write with POLY_BUILDER_* headers, an HMAC computed as
 * L2's (builder-signing-sdk's buildHmacSignature over timestamp + method + path + body). Any API key of
 * this exchange may act as builder. The user is not named by these headers: the relayer takes the user
 * from the transaction's signature. Read-only over the key store, so it lives beside AuthService rather
 * than in it; revocation is read from the store on every call.
 */
export class BuilderAuth {
  private readonly repo: AuthRepo;

  constructor(private readonly ctx: Pick<Infra, 'clock' | 'wallClock' | 'config' | 'db' | 'secrets'>) {
    this.repo = new AuthRepo(ctx.db);
  }

  authenticate(req: L2Request): BuilderIdentity {
    const h = req.headers;
    const missing = BUILDER_HEADERS.filter((n) => !header(h, n));
    if (missing.length > 0) {
      throw new ApiError('missing_auth_headers', `Builder authentication needs ${missing.join(', ')}. Configure the relayer client with a BuilderConfig whose local credentials are an API key of this exchange (POST /auth/api-key).`, {
        details: { missing },
      });
    }
    const apiKey = header(h, 'POLY_BUILDER_API_KEY') as string;
    const passphrase = header(h, 'POLY_BUILDER_PASSPHRASE') as string;
    const signature = header(h, 'POLY_BUILDER_SIGNATURE') as string;
    const timestampText = header(h, 'POLY_BUILDER_TIMESTAMP') as string;
    this.checkTimestamp(timestampText);

    const rec = this.repo.findKey(apiKey);
    if (!rec) {
      throw new ApiError('unknown_api_key', `POLY_BUILDER_API_KEY ${apiKey.slice(0, 60)} was not issued by this exchange. Use an API key of this exchange as builder credentials (POST /auth/api-key).`);
    }
    if (rec.revokedAt !== null) {
      throw new ApiError('api_key_revoked', `POLY_BUILDER_API_KEY ${apiKey} has been revoked. Create a new key with POST /auth/api-key.`);
    }
    const creds = deriveCredentials(this.ctx.secrets.masterKey, rec);
    const given = Buffer.from(passphrase);
    const expectedPass = Buffer.from(creds.passphrase);
    if (given.length !== expectedPass.length || !timingSafeEqual(given, expectedPass)) {
      throw new ApiError('passphrase_mismatch', 'POLY_BUILDER_PASSPHRASE is not the passphrase issued with POLY_BUILDER_API_KEY.');
    }
    const expected = Buffer.from(hmacSha256Base64Url(creds.secretBytes, l2Message(timestampText, req.method, req.path, req.rawBody)));
    const got = Buffer.from(normalizeBase64Signature(signature));
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new ApiError(
        'invalid_signature',
        `POLY_BUILDER_SIGNATURE is not the HMAC-SHA256 of timestamp + "${req.method}" + "${req.path}" + the ${Buffer.byteLength(req.rawBody)}-byte body under the builder API secret.`,
        { details: { method: req.method, path: req.path, bodyBytes: Buffer.byteLength(req.rawBody) } },
      );
    }
    return { apiKey, address: rec.address.toLowerCase() as `0x${string}` };
  }

  private checkTimestamp(text: string): void {
    if (!SECONDS_RE.test(text)) {
      throw new ApiError('invalid_auth_header', `POLY_BUILDER_TIMESTAMP must be unix seconds as a decimal integer (got "${text.slice(0, 40)}").`, {
        details: { header: 'POLY_BUILDER_TIMESTAMP' },
      });
    }
    const ts = Number(text);
    const now = Math.floor((this.ctx.wallClock ?? this.ctx.clock).nowMs() / 1000);
    const window = this.ctx.config.authWindowSeconds;
    if (Math.abs(now - ts) > window) {
      throw new ApiError('timestamp_out_of_window', `POLY_BUILDER_TIMESTAMP ${ts} is ${Math.abs(now - ts)} s from the server clock (${now}); the allowed distance is ${window} s.`, {
        details: { timestamp: ts, serverTime: now, windowSeconds: window },
      });
    }
  }
}
