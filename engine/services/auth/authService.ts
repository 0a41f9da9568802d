import { randomUUID, timingSafeEqual } from 'node:crypto';
import { hashTypedData, hexToBytes } from 'viem';
import { CLOB_AUTH_TYPES, clobAuthDomain, clobAuthMessage, type Address } from '../../protocol/eip712.js';
import { ApiError } from '../../protocol/errors.js';
import { l2Message, normalizeBase64Signature } from '../../protocol/hmac.js';
import { UINT256_MAX } from '../../protocol/amounts.js';
import { AuthRepo, type ApiKeyRecord } from '../../store/authRepo.js';
import type { Infra } from '../infra.js';
import { hmacSha256Base64Url } from '../crypto/hmacSha256.js';
import { parseSignature, recoverAddress } from '../crypto/recoverSigner.js';
import { headerLabel, readAuthHeader, type AuthHeaderName, type HeaderBag } from './authHeaders.js';
import { deriveCredentials } from './deriveCredentials.js';

/** Who an L2 request is from. */
export interface Identity {
  /** Lower-case owner address of the API key. */
  address: `0x${string}`;
  apiKey: string;
}

export interface ApiCredentials {
  /** The public clients' spelling of `key` (decisions §6); both are sent in every profile. */
  apiKey: string;
  key: string;
  secret: string;
  passphrase: string;
}

export interface L2Request {
  method: string;
  /** Route path relative to the service base URL, without the query string (e.g. `/order`, `/submit`). */
  path: string;
  /** The exact body text received ('' without a body). */
  rawBody: string;
  headers: HeaderBag;
}

interface CachedKey {
  address: `0x${string}`;
  hmacKey: Buffer;
  passphrase: Buffer;
  revoked: boolean;
}

interface AddressState {
  highestNonce: bigint | undefined;
  hasKeys: boolean;
  /** Keys claimed but not yet committed (they count against the per-wallet cap). */
  pendingKeys: number;
}

/**
 * Live API keys one wallet may hold. Each key is its own rate-limit bucket, so an unbounded number of
 * them would multiply a wallet's limits (2,000 keys were made for one wallet in 4 s); a bot needs a few.
 */
export const MAX_API_KEYS_PER_WALLET = 100;

interface VerifiedL1 {
  address: Address;
  nonce: bigint;
  timestamp: number;
  /** Normalised: v as 27/28, lower-case hex. */
  l1Signature: string;
  referral: string | null;
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const SECONDS_RE = /^\d{1,15}$/;
const UINT_RE = /^\d{1,78}$/;
const L1_HEADERS: AuthHeaderName[] = ['ADDRESS', 'SIGNATURE', 'TIMESTAMP', 'NONCE'];
const L2_HEADERS: AuthHeaderName[] = ['ADDRESS', 'SIGNATURE', 'TIMESTAMP', 'API_KEY', 'PASSPHRASE'];

/** What the auth service uses (it calls no other service; a first key is told through onFirstKey). */
export type AuthDeps = Pick<Infra, 'clock' | 'wallClock' | 'ids' | 'config' | 'db' | 'secrets' | 'writes'>;

/**
 * API credentials (decisions §2): L1 key creation from an EIP-712 ClobAuth signature, L2 HMAC request
 * authentication, listing and revocation. L2 runs on every order, so live keys are cached in memory with
 * their derived HMAC key; revocation flips the cached entry before the write commits, so it is immediate.
 */
export class AuthService {
  private readonly repo: AuthRepo;
  private readonly keys = new Map<string, CachedKey>();
  private readonly addresses = new Map<string, AddressState>();
  /** L1 signatures issuing a key, not yet committed (the UNIQUE column covers committed ones) → that issuance. */
  private readonly pendingSignatures = new Map<string, Promise<ApiCredentials>>();
  /** L1 signatures that returned an existing key (signature → its timestamp). */
  private readonly spentSignatures = new Map<string, number>();

  constructor(private readonly ctx: AuthDeps) {
    this.repo = new AuthRepo(ctx.db);
  }

  private get compat(): boolean {
    return this.ctx.config.profile === 'polymarket';
  }

  /** Signature windows run on wall time, whatever the exchange clock does (decisions §11). */
  private nowSeconds(): number {
    return Math.floor((this.ctx.wallClock ?? this.ctx.clock).nowMs() / 1000);
  }

  private missing(headers: HeaderBag, names: AuthHeaderName[], level: 'L1' | 'L2'): void {
    const absent = names.filter((n) => readAuthHeader(headers, n, this.compat) === undefined);
    if (absent.length === 0) return;
    const how =
      level === 'L1'
        ? 'POST /auth/api-key needs L1 headers SERVICE_ADDRESS, SERVICE_SIGNATURE (EIP-712 ClobAuth signature), SERVICE_TIMESTAMP and SERVICE_NONCE.'
        : 'This route needs L2 headers SERVICE_ADDRESS, SERVICE_SIGNATURE (HMAC), SERVICE_TIMESTAMP, SERVICE_API_KEY and SERVICE_PASSPHRASE; create credentials with POST /auth/api-key.';
    // A stock public client sends POLY_* headers, which only the polymarket profile reads: say so.
    const polyHint =
      !this.compat && Object.keys(headers).some((h) => h.toLowerCase().startsWith('poly_'))
        ? ' POLY_* headers were sent: they are read only when the exchange runs with --profile polymarket (chain id 137), the profile for unmodified public clients (docs/bots.md).'
        : '';
    throw new ApiError('missing_auth_headers', `Missing ${absent.map(headerLabel).join(', ')}. ${how}${polyHint}`, {
      details: { missing: absent.map(headerLabel) },
    });
  }

  private checkTimestamp(text: string): number {
    if (!SECONDS_RE.test(text)) {
      throw new ApiError('invalid_auth_header', `SERVICE_TIMESTAMP must be unix seconds as a decimal integer (got "${text.slice(0, 40)}").`, {
        details: { header: 'SERVICE_TIMESTAMP' },
      });
    }
    const ts = Number(text);
    const now = this.nowSeconds();
    const window = this.ctx.config.authWindowSeconds;
    if (Math.abs(now - ts) > window) {
      throw new ApiError(
        'timestamp_out_of_window',
        `SERVICE_TIMESTAMP ${ts} is ${Math.abs(now - ts)} s ${ts < now ? 'behind' : 'ahead of'} the server clock (${now}); the allowed distance is ${window} s. Sign with the current time (GET /time gives the server's).`,
        { details: { timestamp: ts, serverTime: now, windowSeconds: window } },
      );
    }
    return ts;
  }

  private addressState(address: string): AddressState {
    let s = this.addresses.get(address);
    if (!s) {
      s = { highestNonce: this.repo.highestNonce(address), hasKeys: this.repo.hasAnyKey(address), pendingKeys: 0 };
      this.addresses.set(address, s);
    }
    return s;
  }

  // -------------------------------------------------------------------------------------------
  // L1: key creation
  // -------------------------------------------------------------------------------------------

  /**
   * POST /auth/api-key: verifies the L1 headers, issues a key, and returns its credentials. In the
   * compatibility profile the nonce is a key slot: a live key of (address, nonce) is returned again.
   */
  async createApiKey(headers: HeaderBag): Promise<ApiCredentials> {
    // Polymarket profile (decisions §6): a signature may come again within its window where the key of its
    // (address, nonce) exists (or is being issued from that very signature); it never issues a second key.
    const l1 = this.verifyL1(headers, this.compat);
    if (this.compat) {
      const existing = this.repo.liveKeyForNonce(l1.address, l1.nonce.toString());
      if (existing) return this.answerFromSlot(existing, l1);
      const issuing = this.pendingSignatures.get(l1.l1Signature);
      if (issuing) return issuing;
      this.refuseUsedSignature(l1);
    }
    return this.issueKey(l1);
  }

  /**
   * GET /auth/derive-api-key (L1): the live key of (address, nonce), re-derived. Its signature is spent in
   * the default profile; in the polymarket profile it may derive again within its window, as the public
   * service allows (two clients built in the same second sign the same bytes).
   */
  deriveApiKey(headers: HeaderBag): ApiCredentials {
    const l1 = this.verifyL1(headers, this.compat);
    const existing = this.repo.liveKeyForNonce(l1.address, l1.nonce.toString());
    if (!existing) {
      throw new ApiError(
        'unknown_api_key',
        `${l1.address} has no live API key created with nonce ${l1.nonce}. Create one with POST /auth/api-key (same nonce), or derive with the nonce you created it with.`,
        { details: { address: l1.address, nonce: l1.nonce.toString() } },
      );
    }
    return this.answerFromSlot(existing, l1);
  }

  private answerFromSlot(record: ApiKeyRecord, l1: VerifiedL1): ApiCredentials {
    this.spendSignature(l1);
    const creds = deriveCredentials(this.ctx.secrets.masterKey, record);
    return { apiKey: record.apiKey, key: record.apiKey, secret: creds.secret, passphrase: creds.passphrase };
  }

  /**
   * A signature that returns an existing key is spent in memory only: it is useless once outside the
   * timestamp window, so entries older than the window are dropped.
   */
  private spendSignature(l1: VerifiedL1): void {
    const oldest = this.nowSeconds() - this.ctx.config.authWindowSeconds;
    for (const [sig, ts] of this.spentSignatures) if (ts < oldest) this.spentSignatures.delete(sig);
    this.spentSignatures.set(l1.l1Signature, l1.timestamp);
  }

  /** Checks the L1 headers and signature, and (unless `repeatable`) that the signature was not used before. */
  private verifyL1(headers: HeaderBag, repeatable = false): VerifiedL1 {
    this.missing(headers, L1_HEADERS, 'L1');
    const addressText = readAuthHeader(headers, 'ADDRESS', this.compat)!;
    const signatureText = readAuthHeader(headers, 'SIGNATURE', this.compat)!;
    const timestampText = readAuthHeader(headers, 'TIMESTAMP', this.compat)!;
    const nonceText = readAuthHeader(headers, 'NONCE', this.compat)!;
    const referralText = readAuthHeader(headers, 'REFERRAL', this.compat);

    if (!ADDRESS_RE.test(addressText)) {
      throw new ApiError('invalid_auth_header', `SERVICE_ADDRESS must be a 0x-prefixed 20-byte hex address (got "${addressText.slice(0, 60)}").`, {
        details: { header: 'SERVICE_ADDRESS' },
      });
    }
    const address = addressText.toLowerCase() as Address;
    const timestamp = this.checkTimestamp(timestampText);
    if (!UINT_RE.test(nonceText) || BigInt(nonceText) > UINT256_MAX) {
      throw new ApiError('invalid_auth_header', `SERVICE_NONCE must be a decimal uint256 (got "${nonceText.slice(0, 90)}").`, {
        details: { header: 'SERVICE_NONCE' },
      });
    }
    const nonce = BigInt(nonceText);
    let referral: string | null = null;
    if (referralText !== undefined) {
      if (!ADDRESS_RE.test(referralText)) {
        throw new ApiError('invalid_field', `SERVICE_REFERRAL must be a 0x-prefixed 20-byte hex address (got "${referralText.slice(0, 60)}"); omit it when unused.`, {
          details: { field: 'SERVICE_REFERRAL', in: 'headers' },
        });
      }
      referral = referralText.toLowerCase();
    }

    const parsed = parseSignature(signatureText);
    const chainId = this.ctx.config.chainId;
    const signing = `ClobAuth{address, timestamp: "${timestampText}" (a string), nonce: ${nonceText}, message: "This message attests that I control the given wallet"} under domain {name: "ClobAuthDomain", version: "1", chainId: ${chainId}}`;
    if (!parsed) {
      throw new ApiError(
        'invalid_signature',
        `SERVICE_SIGNATURE is not a 65-byte 0x-hex signature with v 27/28 (or 0/1) and low s. Sign ${signing}.`,
      );
    }
    const digest = hashTypedData({
      domain: clobAuthDomain(chainId),
      types: CLOB_AUTH_TYPES,
      primaryType: 'ClobAuth',
      message: clobAuthMessage(address, timestampText, nonce),
    });
    const recovered = recoverAddress(hexToBytes(digest), signatureText);
    if (recovered !== address) {
      throw new ApiError(
        'invalid_signature',
        `The L1 signature recovers to ${recovered ?? 'no address'}, not SERVICE_ADDRESS ${address}. Sign ${signing} with the key of SERVICE_ADDRESS.`,
        { details: { recovered, expected: address, chainId } },
      );
    }

    // Normalised so the same signature with v as 0/1 or in other hex casing counts as the same one.
    const l1Signature = '0x' + Buffer.from(parsed.rs).toString('hex') + (parsed.recid === 0 ? '1b' : '1c');
    const l1: VerifiedL1 = { address, nonce, timestamp, l1Signature, referral };
    if (!repeatable) this.refuseUsedSignature(l1);
    return l1;
  }

  /** A signature that issued a key, is issuing one, or returned one (default profile) is not accepted again. */
  private refuseUsedSignature(l1: VerifiedL1): void {
    if (this.pendingSignatures.has(l1.l1Signature) || this.spentSignatures.has(l1.l1Signature) || this.repo.signatureUsed(l1.l1Signature)) {
      throw new ApiError('nonce_reused', 'This L1 signature was already used. Sign a new ClobAuth message (current timestamp, same or higher nonce).');
    }
  }

  private issueKey(l1: VerifiedL1): Promise<ApiCredentials> {
    // Claimed synchronously, before the first await, so a concurrent request with the same signature sees it.
    const issuing = this.insertKey(l1);
    this.pendingSignatures.set(l1.l1Signature, issuing);
    return issuing.finally(() => this.pendingSignatures.delete(l1.l1Signature));
  }

  private async insertKey(l1: VerifiedL1): Promise<ApiCredentials> {
    const { address, nonce, timestamp, l1Signature, referral } = l1;
    const state = this.addressState(address);
    // The nonce is a replay floor in the default profile and a key slot in the compatibility profile.
    if (!this.compat && state.highestNonce !== undefined && nonce < state.highestNonce) {
      throw new ApiError(
        'nonce_reused',
        `SERVICE_NONCE ${nonce} is below ${state.highestNonce}, the highest nonce accepted for ${address}. Sign with a nonce of at least ${state.highestNonce}.`,
        { details: { nonce: nonce.toString(), highestAccepted: state.highestNonce.toString() } },
      );
    }

    const live = state.pendingKeys + (state.hasKeys ? this.listKeys({ address, apiKey: '' }).apiKeys.length : 0);
    if (live >= MAX_API_KEYS_PER_WALLET) {
      throw new ApiError(
        'api_key_limit',
        `${address} already holds ${live} live API keys, the most one wallet may have (${MAX_API_KEYS_PER_WALLET}). Reuse one (GET /auth/api-keys lists them) or revoke one with DELETE /auth/api-key first.`,
        { details: { address, live, max: MAX_API_KEYS_PER_WALLET } },
      );
    }

    // Claimed synchronously, before the first await, so concurrent requests cannot both pass the checks.
    const prevNonce = state.highestNonce;
    state.pendingKeys += 1;
    const firstKey = !state.hasKeys;
    state.highestNonce = prevNonce === undefined || nonce > prevNonce ? nonce : prevNonce;
    state.hasKeys = true;

    const record: ApiKeyRecord = {
      apiKey: this.ctx.ids?.uuid() ?? randomUUID(),
      address,
      l1Nonce: nonce.toString(),
      l1Timestamp: timestamp,
      l1Signature,
      referral,
      createdAt: this.ctx.clock.nowMs(),
      revokedAt: null,
    };
    try {
      await this.ctx.writes.commit((db) => this.repo.insertKey(db, record));
    } catch (e) {
      state.highestNonce = prevNonce;
      state.hasKeys = !firstKey;
      throw e;
    } finally {
      state.pendingKeys -= 1;
    }

    const creds = deriveCredentials(this.ctx.secrets.masterKey, record);
    this.keys.set(record.apiKey, {
      address,
      hmacKey: creds.secretBytes,
      passphrase: Buffer.from(creds.passphrase),
      revoked: false,
    });
    if (firstKey) for (const listener of this.onFirstKey) await listener(address);
    return { apiKey: record.apiKey, key: record.apiKey, secret: creds.secret, passphrase: creds.passphrase };
  }

  // -------------------------------------------------------------------------------------------
  // L2: request authentication (hot path)
  // -------------------------------------------------------------------------------------------

  private cachedKey(apiKey: string): CachedKey | undefined {
    let k = this.keys.get(apiKey);
    if (!k) {
      const rec = this.repo.findKey(apiKey);
      if (!rec) return undefined;
      const creds = deriveCredentials(this.ctx.secrets.masterKey, rec);
      k = { address: rec.address as `0x${string}`, hmacKey: creds.secretBytes, passphrase: Buffer.from(creds.passphrase), revoked: rec.revokedAt !== null };
      this.keys.set(apiKey, k);
    }
    return k;
  }

  /** A key this exchange issued and has not revoked (the rate limiter buckets by it). */
  isLiveKey(apiKey: string): boolean {
    const k = this.cachedKey(apiKey);
    return k !== undefined && !k.revoked;
  }

  /** Verifies the L2 headers of a request; returns who sent it or throws a specific 401. */
  authenticateL2(req: L2Request): Identity {
    const h = req.headers;
    const compat = this.compat;
    const addressText = readAuthHeader(h, 'ADDRESS', compat);
    const signature = readAuthHeader(h, 'SIGNATURE', compat);
    const timestampText = readAuthHeader(h, 'TIMESTAMP', compat);
    const apiKey = readAuthHeader(h, 'API_KEY', compat);
    const passphrase = readAuthHeader(h, 'PASSPHRASE', compat);
    if (addressText === undefined || signature === undefined || timestampText === undefined || apiKey === undefined || passphrase === undefined) {
      this.missing(h, L2_HEADERS, 'L2');
      throw new Error('unreachable: missing() throws when a header is absent');
    }

    this.checkTimestamp(timestampText);
    const key = this.cachedKey(apiKey);
    if (!key) {
      throw new ApiError('unknown_api_key', `SERVICE_API_KEY ${apiKey.slice(0, 60)} was not issued by this exchange. Create credentials with POST /auth/api-key.`);
    }
    if (key.revoked) {
      throw new ApiError('api_key_revoked', `SERVICE_API_KEY ${apiKey} has been revoked. Create a new key with POST /auth/api-key.`);
    }
    if (addressText.toLowerCase() !== key.address) {
      throw new ApiError('address_mismatch', `SERVICE_ADDRESS ${addressText.slice(0, 60)} is not the address that created SERVICE_API_KEY. Send the owner's address (the signer EOA, not a proxy or Safe).`);
    }
    const given = Buffer.from(passphrase);
    if (given.length !== key.passphrase.length || !timingSafeEqual(given, key.passphrase)) {
      throw new ApiError('passphrase_mismatch', 'SERVICE_PASSPHRASE is not the passphrase issued with SERVICE_API_KEY (64 hex characters, returned once by POST /auth/api-key).');
    }
    const expected = Buffer.from(hmacSha256Base64Url(key.hmacKey, l2Message(timestampText, req.method, req.path, req.rawBody)));
    const got = Buffer.from(normalizeBase64Signature(signature));
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new ApiError(
        'invalid_signature',
        `SERVICE_SIGNATURE is not the HMAC-SHA256 of timestamp + "${req.method}" + "${req.path}" + the ${Buffer.byteLength(req.rawBody)}-byte body under the API secret. Sign the path without host or query string, and the exact body bytes sent.`,
        { details: { method: req.method, path: req.path, bodyBytes: Buffer.byteLength(req.rawBody) } },
      );
    }
    return { address: key.address, apiKey };
  }

  // -------------------------------------------------------------------------------------------
  // Key management (L2)
  // -------------------------------------------------------------------------------------------

  /** GET /auth/api-keys: the caller's live keys, oldest first. */
  listKeys(identity: Identity): { apiKeys: string[] } {
    return { apiKeys: this.repo.listActiveKeys(identity.address).filter((k) => !this.keys.get(k)?.revoked) };
  }

  /**
   * Told of an address's first key once it is durable, before the key is returned; awaited, so the
   * welcome grant the composition root subscribes here is on the books when the caller sees the key.
   */
  readonly onFirstKey = new Set<(address: string) => Promise<unknown>>();

  /** Called with each revoked key, before revoke() returns (the streams service closes its sockets). */
  readonly onRevoke = new Set<(apiKey: string) => void>();

  /** The user stream's check: the L2 credentials themselves (no request to sign), as the public channel takes them. */
  verifyCredentials(apiKey: string, secret: string, passphrase: string): Identity {
    const key = this.cachedKey(apiKey);
    if (!key) throw new ApiError('unknown_api_key', `apiKey ${apiKey.slice(0, 60)} was not issued by this exchange. Create credentials with POST /auth/api-key.`);
    if (key.revoked) throw new ApiError('api_key_revoked', `apiKey ${apiKey} has been revoked. Create a new key with POST /auth/api-key.`);
    const rec = this.repo.findKey(apiKey);
    const creds = rec ? deriveCredentials(this.ctx.secrets.masterKey, rec) : undefined;
    const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
    if (!creds || !same(secret, creds.secret) || !same(passphrase, creds.passphrase)) throw new ApiError('passphrase_mismatch', 'secret or passphrase is not the one issued with apiKey.');
    return { address: key.address, apiKey };
  }

  /** DELETE /auth/api-key: revokes the key that signed the request, effective before this returns. */
  async revoke(identity: Identity): Promise<{ revoked: string }> {
    const key = this.cachedKey(identity.apiKey);
    if (key) key.revoked = true;
    const at = this.ctx.clock.nowMs();
    await this.ctx.writes.commit((db) => this.repo.revokeKey(db, identity.apiKey, at));
    for (const listener of this.onRevoke) listener(identity.apiKey);
    return { revoked: identity.apiKey };
  }
}
