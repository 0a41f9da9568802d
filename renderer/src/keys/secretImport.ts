/**
 * What a user may paste to import a wallet: a 32-byte private key (hex, 0x optional) or a BIP-39
 * mnemonic (12–24 words; the first account of the standard Ethereum path, m/44'/60'/0'/0/index).
 */
import { english, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { hexToBytes, sha256, toHex } from 'viem';
import type { Address, Hex } from '../../../engine/protocol/eip712.js';
import { normalizePrivateKey } from '../wallets/walletStore.js';

export interface ImportedSecret {
  kind: 'private-key' | 'mnemonic';
  privateKey: Hex;
  address: Address;
}

/** BIP-39: every word in the English list and the last bits a SHA-256 checksum of the entropy (viem derives without checking). */
export function isValidMnemonic(words: readonly string[]): boolean {
  const bits = words.map((w) => english.indexOf(w)).map((i) => (i < 0 ? 'x' : i.toString(2).padStart(11, '0'))).join('');
  if (bits.includes('x')) return false;
  const cs = bits.length / 33;
  const entropy = Uint8Array.from(bits.slice(0, bits.length - cs).match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const hash = hexToBytes(sha256(entropy));
  return hash[0]!.toString(2).padStart(8, '0').slice(0, cs) === bits.slice(bits.length - cs);
}

export function importSecret(text: string, addressIndex = 0): ImportedSecret {
  const t = text.trim();
  const words = t.split(/\s+/).filter(Boolean);
  if (words.length >= 12) {
    if (![12, 15, 18, 21, 24].includes(words.length)) throw new Error(`A mnemonic has 12, 15, 18, 21 or 24 words (got ${words.length}).`);
    const lower = words.map((w) => w.toLowerCase());
    if (!isValidMnemonic(lower)) throw new Error('That mnemonic is not valid BIP-39 (a word is misspelt or the checksum does not match).');
    const account = mnemonicToAccount(lower.join(' '), { addressIndex });
    const key = account.getHdKey().privateKey;
    if (!key) throw new Error('The mnemonic gave no private key.');
    return { kind: 'mnemonic', privateKey: toHex(key), address: account.address };
  }
  const privateKey = normalizePrivateKey(t);
  return { kind: 'private-key', privateKey, address: privateKeyToAccount(privateKey).address };
}
