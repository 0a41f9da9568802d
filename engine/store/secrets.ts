import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, makePrivateFile } from './privateFiles.js';

/** Secrets the engine keeps in its data directory (file mode 0600), created on first start. */
export interface Secrets {
  /** Keyed-HMAC master key from which API secrets and passphrases are derived (decisions §2). */
  masterKey: string;
  /** Bearer token of the operator routes (decisions §7). */
  operatorToken: string;
  /** Private key of the engine's operator account: deploys contracts, is the markets' oracle, signs approvals. */
  operatorPrivateKey: `0x${string}`;
  /** Private key of the GSN relay EOA that submits relayHub.relayCall transactions. */
  relayPrivateKey: `0x${string}`;
}

const FILE = 'secrets.json';

function hex32(): `0x${string}` {
  return `0x${randomBytes(32).toString('hex')}`;
}

/** `fresh`: keys a new data directory takes instead of random ones (a seeded run derives its operator key, hence its condition ids, from the seed). */
export function loadOrCreateSecrets(dataDir: string, fresh: Partial<Pick<Secrets, 'operatorPrivateKey' | 'relayPrivateKey'>> = {}): Secrets {
  makePrivateDir(dataDir);
  const path = join(dataDir, FILE);
  if (existsSync(path)) {
    makePrivateFile(path);
    const s = JSON.parse(readFileSync(path, 'utf8')) as Partial<Secrets>;
    // Fill in secrets that older data directories lack, keeping the ones they have.
    const full: Secrets = {
      masterKey: s.masterKey ?? randomBytes(32).toString('hex'),
      operatorToken: s.operatorToken ?? randomBytes(24).toString('hex'),
      operatorPrivateKey: s.operatorPrivateKey ?? hex32(),
      relayPrivateKey: s.relayPrivateKey ?? hex32(),
    };
    if (JSON.stringify(full) !== JSON.stringify(s)) writeSecrets(path, full);
    return full;
  }
  const created: Secrets = {
    masterKey: randomBytes(32).toString('hex'),
    operatorToken: randomBytes(24).toString('hex'),
    operatorPrivateKey: fresh.operatorPrivateKey ?? hex32(),
    relayPrivateKey: fresh.relayPrivateKey ?? hex32(),
  };
  writeSecrets(path, created);
  return created;
}

function writeSecrets(path: string, s: Secrets): void {
  writeFileSync(path, JSON.stringify(s, null, 2), { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * A new operator token for this start (or the one the user pinned), written back to secrets.json so
 * local scripts with access to the data directory can still read it. Rotating per start means a token
 * seen once (a screenshot, a shell history, an old log) stops working at the next restart.
 */
export function rotateOperatorToken(dataDir: string, secrets: Secrets, pinned?: string): Secrets {
  const next: Secrets = { ...secrets, operatorToken: pinned ?? randomBytes(24).toString('hex') };
  writeSecrets(join(dataDir, FILE), next);
  return next;
}
