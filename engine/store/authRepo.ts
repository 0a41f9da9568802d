import type { Db } from './database.js';

/** One issued API key as stored: no secret, no passphrase (decisions §2). */
export interface ApiKeyRecord {
  apiKey: string;
  /** Lower-case 0x address. */
  address: string;
  l1Nonce: string;
  l1Timestamp: number;
  l1Signature: string;
  referral: string | null;
  createdAt: number;
  revokedAt: number | null;
}

interface Row {
  api_key: string;
  address: string;
  l1_nonce: string;
  l1_timestamp: number;
  l1_signature: string;
  referral: string | null;
  created_at: number;
  revoked_at: number | null;
}

function toRecord(r: Row): ApiKeyRecord {
  return {
    apiKey: r.api_key,
    address: r.address,
    l1Nonce: r.l1_nonce,
    l1Timestamp: r.l1_timestamp,
    l1Signature: r.l1_signature,
    referral: r.referral,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}

/** The SQL of API keys. Reads run on the shared connection; writes take the batcher's `db`. */
export class AuthRepo {
  private readonly byKey;
  private readonly activeByAddress;
  private readonly noncesByAddress;
  private readonly countByAddress;
  private readonly bySignature;
  private readonly liveBySlot;

  constructor(db: Db) {
    this.byKey = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE api_key = ?');
    this.activeByAddress = db
      .prepare<[string], string>('SELECT api_key FROM api_keys WHERE address = ? AND revoked_at IS NULL ORDER BY created_at, api_key')
      .pluck();
    this.noncesByAddress = db.prepare<[string], string>('SELECT l1_nonce FROM api_keys WHERE address = ?').pluck();
    this.countByAddress = db.prepare<[string], number>('SELECT COUNT(*) FROM api_keys WHERE address = ?').pluck();
    this.bySignature = db.prepare<[string], number>('SELECT 1 FROM api_keys WHERE l1_signature = ?').pluck();
    this.liveBySlot = db.prepare<[string, string], Row>(
      'SELECT * FROM api_keys WHERE address = ? AND l1_nonce = ? AND revoked_at IS NULL ORDER BY created_at, api_key LIMIT 1',
    );
  }

  findKey(apiKey: string): ApiKeyRecord | undefined {
    const r = this.byKey.get(apiKey);
    return r ? toRecord(r) : undefined;
  }

  /** Live keys of an address, oldest first. */
  listActiveKeys(address: string): string[] {
    return this.activeByAddress.all(address);
  }

  /** The highest SERVICE_NONCE accepted for an address (revoked keys included), if any. */
  highestNonce(address: string): bigint | undefined {
    let max: bigint | undefined;
    for (const n of this.noncesByAddress.all(address)) {
      const v = BigInt(n);
      if (max === undefined || v > max) max = v;
    }
    return max;
  }

  /** Whether the address was ever issued a key (revoked ones count: the welcome credit is once per wallet). */
  hasAnyKey(address: string): boolean {
    return this.countByAddress.get(address)! > 0;
  }

  /** The oldest live key created with this (address, L1 nonce): the compatibility profile's key slot. */
  liveKeyForNonce(address: string, nonce: string): ApiKeyRecord | undefined {
    const r = this.liveBySlot.get(address, nonce);
    return r ? toRecord(r) : undefined;
  }

  signatureUsed(l1Signature: string): boolean {
    return this.bySignature.get(l1Signature) !== undefined;
  }

  insertKey(db: Db, k: ApiKeyRecord): void {
    db.prepare(
      `INSERT INTO api_keys (api_key, address, l1_nonce, l1_timestamp, l1_signature, referral, created_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(k.apiKey, k.address, k.l1Nonce, k.l1Timestamp, k.l1Signature, k.referral, k.createdAt, k.revokedAt);
  }

  revokeKey(db: Db, apiKey: string, at: number): void {
    db.prepare('UPDATE api_keys SET revoked_at = ? WHERE api_key = ? AND revoked_at IS NULL').run(at, apiKey);
  }
}
