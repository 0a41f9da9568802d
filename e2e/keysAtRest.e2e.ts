// Issue 14, keys and wallets: in the browser build nothing secret is stored in plain text. A burner
// wallet's private key and its API key's secret and passphrase are sealed (AES-GCM under a
// non-extractable device key in IndexedDB) before they reach localStorage; a reload opens them and the
// wallet trades as before; the passphrase lock takes the wallet and its API credentials away together
// and brings both back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, onboardTrader, showSideTab, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

const everythingStored = (page: Page) => page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));

function assertNoPlaintext(stored: string, secrets: Record<string, string>, when: string): void {
  for (const [what, value] of Object.entries(secrets)) {
    assert.ok(!stored.toLowerCase().includes(value.toLowerCase().replace(/^0x/, '')), `${when}: the ${what} is not in localStorage in plain text`);
  }
}

test('localStorage never holds a private key, API secret or API passphrase in plain text; reload and the passphrase lock keep the wallet working', async () => {
  const { context, page } = await j.newTrader();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const address = await onboardTrader(page);
  await page.getByTestId('wallet-panel').getByRole('button', { name: 'Show key' }).click();
  const privateKey = (await page.getByTestId('wallet-private-key').innerText()).trim();
  assert.match(privateKey, /^0x[0-9a-f]{64}$/);

  // A second API key through the keys panel: its secret is shown once; copy it to learn all three parts.
  await showSideTab(page, 'keys');
  const panel = page.getByTestId('keys-panel');
  await panel.getByTestId('keys-api-create').click();
  await panel.getByTestId('keys-secret-copy').click();
  await panel.getByTestId('keys-secret-copy').getByText('Copied').waitFor();
  const creds = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { key: string; secret: string; passphrase: string };
  await panel.getByTestId('keys-secret-hide').click();
  const secrets = { 'private key': privateKey, 'API secret': creds.secret, 'API passphrase': creds.passphrase };
  assert.equal((await panel.getByTestId('keys-at-rest').getAttribute('data-kind')), 'device-key');

  await eventually('the sealed wallets in localStorage', async () => (await everythingStored(page)).includes('sandbox-terminal.wallets'));
  await page.waitForTimeout(300);
  const stored = await everythingStored(page);
  assertNoPlaintext(stored, secrets, 'after creating the wallet and keys');
  const envelope = JSON.parse(await page.evaluate(() => localStorage.getItem('sandbox-terminal.wallets')!)) as Record<string, string>;
  assert.deepEqual(Object.keys(envelope), ['sealed', 'by', 'data']);
  assert.equal(envelope.by, 'device-key');
  // The device key in IndexedDB cannot be exported: its bytes never leave WebCrypto.
  const exportable = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('sandbox-terminal.keys');
        open.onsuccess = () => {
          const get = open.result.transaction('keys').objectStore('keys').get('device');
          get.onsuccess = () => {
            const key = get.result as CryptoKey;
            crypto.subtle.exportKey('raw', key).then(
              () => resolve('exported'),
              () => resolve(`refused (extractable=${key.extractable}, ${key.algorithm.name})`),
            );
          };
        };
      }),
  );
  assert.equal(exportable, 'refused (extractable=false, AES-GCM)');

  // Reload: the wallet and its keys are opened again and the API key still authenticates (balance shown).
  await page.reload();
  await eventually('the wallet restored', async () => (await page.getByTestId('wallet-address').getAttribute('data-address')) === address);
  // The balance sits in the Wallet tab while Keys at rest is the one shown: loaded is what counts.
  await page.getByTestId('wallet-balance').locator('b').waitFor({ state: 'attached' });
  assert.equal(await panel.locator(`[data-testid="keys-api-row"][data-key="${creds.key}"]`).count(), 1);
  assertNoPlaintext(await everythingStored(page), secrets, 'after a reload');
  await j.screenshot(page, 'issue14-keys-at-rest');

  // The passphrase lock takes the wallet and its API credentials together; unlock brings both back.
  await panel.getByTestId('keys-passphrase').fill('correct horse battery');
  await panel.getByTestId('keys-lock').click();
  await panel.getByTestId('keys-locked').waitFor();
  await page.reload();
  await panel.getByTestId('keys-locked').waitFor();
  await page.waitForTimeout(300);
  assertNoPlaintext(await everythingStored(page), secrets, 'while locked');
  assert.equal(await panel.getByTestId('keys-wallet').count(), 0);
  assert.equal(await panel.getByTestId('keys-api-row').count(), 0, 'no API key is left usable while locked');
  await panel.getByTestId('keys-passphrase').fill('correct horse battery');
  await panel.getByTestId('keys-unlock').click();
  await panel.getByTestId('keys-message').getByText('Unlocked 1 wallet(s).').waitFor();
  await eventually('the wallet back', async () => (await page.getByTestId('wallet-address').getAttribute('data-address')) === address);
  await page.getByTestId('wallet-balance').locator('b').waitFor({ state: 'attached' });
  assert.equal(await panel.locator(`[data-testid="keys-api-row"][data-key="${creds.key}"]`).count(), 1, 'its API credentials came back with it');
  await page.waitForTimeout(300);
  assertNoPlaintext(await everythingStored(page), secrets, 'after unlocking');
});
