import { createHmac } from 'node:crypto';

/** What a key's secret and passphrase are derived from; all of it is stored, the results never are. */
export interface CredentialInputs {
  apiKey: string;
  /** Lower-case owner address. */
  address: string;
  /** Normalised L1 signature that created the key. */
  l1Signature: string;
}

export interface DerivedCredentials {
  /** The HMAC key of L2 signatures (the decoded secret). */
  secretBytes: Buffer;
  /** 32 bytes, URL-safe base64 with `=` padding (44 chars): the form every public client decodes. */
  secret: string;
  /** 64 lower-case hex characters. */
  passphrase: string;
}

/**
 * Keyed-HMAC derivation (decisions §2): the server can recompute a key's secret and passphrase to
 * verify requests, yet the database never holds them. Distinct labels keep the two outputs independent.
 */
export function deriveCredentials(masterKey: string, inputs: CredentialInputs): DerivedCredentials {
  const material = `${inputs.apiKey}\n${inputs.address}\n${inputs.l1Signature}`;
  const secretBytes = createHmac('sha256', masterKey).update('api-secret\n' + material).digest();
  const passphrase = createHmac('sha256', masterKey).update('api-passphrase\n' + material).digest('hex');
  const secret = secretBytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return { secretBytes, secret, passphrase };
}
