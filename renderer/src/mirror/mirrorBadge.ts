import type { MirrorStatus, PublicCatalogueEntry } from '../../../engine/client/index.js';

export interface MirrorBadgeView {
  /** MIRRORED for a live public mirror, REPLAY for a tape driving the market. */
  label: 'MIRRORED' | 'REPLAY';
  state: MirrorStatus['upstreamState'];
  /** `live · 3s`: the upstream state and the age of the last upstream event now. */
  detail: string;
  /** The badge's colour class, like the other badges (ok / warn / dim). */
  tone: 'ok' | 'warn' | 'dim';
  /** The sentence behind the badge (tooltip and screen readers). */
  title: string;
  /** What a trader must know before sending an order, when the mirror is not live; null when it is. */
  notice: string | null;
}

/** `4s`, `2m 05s`, `1h 07m`: short enough for a badge, exact to the second under an hour. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d`;
}

/**
 * What the badge of a mirrored market shows. The engine reports the event age as of its answer;
 * `sinceAnswerMs` (time since that answer arrived) keeps the age counting between refetches.
 */
export function mirrorBadge(mirror: MirrorStatus, sinceAnswerMs: number): MirrorBadgeView {
  const replay = mirror.source.startsWith('tape:');
  const age = mirror.lastEventAgeMs === null ? null : mirror.lastEventAgeMs + Math.max(0, sinceAnswerMs);
  const ageWords = age === null ? 'no upstream event yet' : `last upstream event ${ageText(age)} ago`;
  const what = replay ? `Replay of the tape ${mirror.source.slice('tape:'.length)}` : 'Mirror of a public market';
  const stateWords =
    mirror.upstreamState === 'live'
      ? 'its public depth is current'
      : mirror.upstreamState === 'stale'
        ? 'stale: market orders are refused until the upstream answers again'
        : 'closed upstream: no new orders';
  return {
    label: replay ? 'REPLAY' : 'MIRRORED',
    state: mirror.upstreamState,
    detail: `${mirror.upstreamState}${age === null ? '' : ` · ${ageText(age)}`}`,
    tone: mirror.upstreamState === 'live' ? 'ok' : mirror.upstreamState === 'stale' ? 'warn' : 'dim',
    title: `${what}; ${stateWords}; ${ageWords}.`,
    notice:
      mirror.upstreamState === 'stale'
        ? `The public market has been silent${age === null ? '' : ` for ${ageText(age)}`}: orders that would trade now are refused until it answers again; resting orders stay and limit orders that do not cross may still rest.`
        : mirror.upstreamState === 'closed'
          ? 'The public market stopped trading (or this mirror was stopped): no new orders.'
          : null,
  };
}

/** `$1.2M`, `$35.4k`, `$812`: Gamma's volume (a decimal string of dollars) at a glance; `—` when not a number. */
export function volumeText(volume: string): string {
  const v = Number(volume);
  if (!Number.isFinite(v) || volume.trim() === '') return '—';
  if (v >= 1e9) return `$${(v / 1e9).toFixed(1)}B`;
  if (v >= 1e6) return `$${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `$${(v / 1e3).toFixed(1)}k`;
  return `$${Math.round(v)}`;
}

/** `1.4 MB`, `12.0 kB`, `812 B`. */
export function bytesText(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}

export interface PublicResultView {
  /** `Yes 0.315`: the first outcome's cached price, or a dash when Gamma gave none. */
  price: string;
  volume: string;
  /** A closed public market is marked: mirroring it gives a market that takes no orders. */
  closed: boolean;
  /** Already mirrored here: the row offers Open instead of Mirror. */
  here: boolean;
}

/** One public search result as the Mirrors tab shows it. */
export function publicResultView(e: PublicCatalogueEntry, mirroredHere: ReadonlySet<string>): PublicResultView {
  const p = e.outcomePrices?.[0];
  const price = p !== undefined && Number.isFinite(Number(p)) && p.trim() !== '' ? `${e.outcomes[0]} ${Number(p).toFixed(3)}` : '—';
  return { price, volume: volumeText(e.volume), closed: e.closed, here: mirroredHere.has(e.conditionId.toLowerCase()) };
}
