import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ageText, bytesText, mirrorBadge, publicResultView, volumeText } from './mirrorBadge.js';

test('a live public mirror is MIRRORED, green, with the age of its last upstream event', () => {
  const b = mirrorBadge({ source: 'public', upstreamState: 'live', lastEventAgeMs: 2_400 }, 0);
  assert.equal(b.label, 'MIRRORED');
  assert.equal(b.tone, 'ok');
  assert.equal(b.detail, 'live · 2s');
  assert.match(b.title, /public market.*current.*2s ago/);
});

test('the age keeps counting from the engine answer until the next one', () => {
  assert.equal(mirrorBadge({ source: 'public', upstreamState: 'live', lastEventAgeMs: 2_400 }, 3_000).detail, 'live · 5s');
  // A clock that went backwards never makes the age smaller than the engine said.
  assert.equal(mirrorBadge({ source: 'public', upstreamState: 'live', lastEventAgeMs: 2_400 }, -5_000).detail, 'live · 2s');
});

test('a stale mirror warns that market orders are refused; a closed one is dimmed', () => {
  const stale = mirrorBadge({ source: 'public', upstreamState: 'stale', lastEventAgeMs: 45_000 }, 0);
  assert.equal(stale.tone, 'warn');
  assert.equal(stale.detail, 'stale · 45s');
  assert.match(stale.title, /market orders are refused/);
  assert.match(stale.notice!, /silent for 45s: orders that would trade now are refused.*resting orders stay/);
  assert.match(mirrorBadge({ source: 'public', upstreamState: 'closed', lastEventAgeMs: 1 }, 0).notice!, /no new orders/);
  assert.equal(mirrorBadge({ source: 'public', upstreamState: 'live', lastEventAgeMs: 1 }, 0).notice, null, 'nothing to say while live');
  assert.equal(mirrorBadge({ source: 'public', upstreamState: 'closed', lastEventAgeMs: null }, 10_000).tone, 'dim');
});

test('before the first upstream event there is no age, whatever time passed', () => {
  const b = mirrorBadge({ source: 'public', upstreamState: 'live', lastEventAgeMs: null }, 60_000);
  assert.equal(b.detail, 'live');
  assert.match(b.title, /no upstream event yet/);
});

test('a tape source is a REPLAY naming its tape', () => {
  const b = mirrorBadge({ source: 'tape:0xabc-2026-11-27.jsonl.gz', upstreamState: 'live', lastEventAgeMs: 0 }, 0);
  assert.equal(b.label, 'REPLAY');
  assert.match(b.title, /tape 0xabc-2026-11-27\.jsonl\.gz/);
});

test('ages read in seconds under a minute, minutes and seconds under an hour, then hours and days', () => {
  assert.deepEqual([0, 999, 59_999, 60_000, 125_000, 3_600_000, 3_660_000, 49 * 3_600_000].map(ageText), ['0s', '0s', '59s', '1m 00s', '2m 05s', '1h 00m', '1h 01m', '2d']);
});

test('volumes read in dollars with k, M and B, and a blank or non-number as a dash', () => {
  assert.deepEqual(['812.4', '35412.5', '1250000', '2100000000', '', 'n/a'].map(volumeText), ['$812', '$35.4k', '$1.3M', '$2.1B', '—', '—']);
});

test('tape sizes read in B, kB and MB', () => {
  assert.deepEqual([812, 12_040, 1_400_000].map(bytesText), ['812 B', '12.0 kB', '1.4 MB']);
});

test('a public result shows its first outcome’s price, its volume, whether it closed and whether it is mirrored here', () => {
  const entry = { conditionId: '0xABC', slug: 's', question: 'q', eventTitle: 'e', outcomes: ['Yes', 'No'], outcomePrices: ['0.315', '0.685'], volume: '1843021.55', closed: false, image: '' };
  assert.deepEqual(publicResultView(entry, new Set()), { price: 'Yes 0.315', volume: '$1.8M', closed: false, here: false });
  assert.equal(publicResultView(entry, new Set(['0xabc'])).here, true, 'condition ids compare in lower case');
  assert.deepEqual(publicResultView({ ...entry, outcomePrices: null, closed: true, volume: '' }, new Set()), { price: '—', volume: '—', closed: true, here: false });
  assert.equal(publicResultView({ ...entry, outcomePrices: ['', '1'] }, new Set()).price, '—');
});
