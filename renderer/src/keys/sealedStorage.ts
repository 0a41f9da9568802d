import type { StateStorage } from 'zustand/middleware';
import type { SecretBox } from './secretBox.js';

/** What the backing storage holds for a sealed item: never the plaintext. */
export interface SealedEnvelope {
  sealed: 'v1';
  by: SecretBox['kind'];
  data: string;
}

function envelopeOf(text: string): SealedEnvelope | undefined {
  try {
    const v = JSON.parse(text) as Partial<SealedEnvelope> | null;
    return v && v.sealed === 'v1' && typeof v.data === 'string' && (v.by === 'os-keychain' || v.by === 'device-key') ? (v as SealedEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A zustand persist storage that seals every item before it reaches `backing` (localStorage) and opens
 * it on load. An item still in plain text (written before sealing existed) is read once and sealed at
 * once. Writes are chained so the last state written is the one stored, whatever each encryption takes.
 */
export function sealedStorage(box: () => Promise<SecretBox>, open: (kind: SecretBox['kind']) => Promise<SecretBox>, backing: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>): StateStorage<Promise<void>> {
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (f: () => Promise<void> | void): Promise<void> => {
    chain = chain.catch(() => undefined).then(f);
    return chain;
  };
  const setItem = (name: string, value: string) =>
    enqueue(async () => {
      const b = await box();
      const envelope: SealedEnvelope = { sealed: 'v1', by: b.kind, data: await b.seal(value) };
      backing.setItem(name, JSON.stringify(envelope));
    });
  return {
    async getItem(name) {
      await chain.catch(() => undefined);
      const text = backing.getItem(name);
      if (text === null) return null;
      const envelope = envelopeOf(text);
      if (!envelope) {
        await setItem(name, text);
        return text;
      }
      return (await open(envelope.by)).open(envelope.data);
    },
    setItem,
    removeItem: (name) => enqueue(() => backing.removeItem(name)),
  };
}
