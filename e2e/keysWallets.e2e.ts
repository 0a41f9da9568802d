// Journey: keys and wallets. Import a mnemonic with a label and a raw private key, switch between the
// wallets, see signer / funder / signature type, then lock the keys behind a passphrase: after a reload
// the browser's storage holds no private key, a wrong passphrase is refused, the right one restores them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { showSideTab, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

const MNEMONIC = 'test test test test test test test test test test test junk';
const FIRST = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SECOND_KEY = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const SECOND = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test('import by mnemonic and private key, switch wallets, lock and unlock the keys at rest', async () => {
  const { context, page } = await j.newTrader();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('onboarding-skip').click();
  await showSideTab(page, 'keys');
  const panel = page.getByTestId('keys-panel');
  await panel.getByTestId('keys-import').locator('summary').click();

  await panel.getByTestId('keys-secret').fill(MNEMONIC);
  await panel.getByTestId('keys-label').fill('Main');
  await panel.getByTestId('keys-import-submit').click();
  assert.match(await panel.getByTestId('keys-message').innerText(), /Imported Main .* from a mnemonic/);
  await panel.getByTestId('keys-secret').fill('not a key');
  await panel.getByTestId('keys-import-submit').click();
  assert.match(await panel.getByTestId('keys-error').innerText(), /64 hex characters/);
  await panel.getByTestId('keys-secret').fill(SECOND_KEY);
  await panel.getByTestId('keys-label').fill('Hedge');
  await panel.getByTestId('keys-import-submit').click();

  const wallets = panel.getByTestId('keys-wallet');
  assert.deepEqual(await wallets.evaluateAll((els) => els.map((e) => e.getAttribute('data-address'))), [FIRST, SECOND]);
  assert.equal(await page.getByTestId('wallet-address').getAttribute('data-address'), SECOND);
  await wallets.first().click();
  assert.equal(await page.getByTestId('wallet-address').getAttribute('data-address'), FIRST);
  assert.match(await panel.getByTestId('keys-identity').innerText(), /Signer[\s\S]*Funder[\s\S]*0 · EOA/);

  // A new API key: its secret is shown once with a copy button, then hidden for good; keys take labels.
  await panel.getByTestId('keys-api-create').click();
  const secret = await panel.getByTestId('keys-secret-value').innerText();
  assert.ok(secret.length > 20);
  await panel.getByTestId('keys-secret-copy').click();
  await panel.getByTestId('keys-secret-copy').getByText('Copied').waitFor();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { key: string; secret: string; passphrase: string };
  assert.equal(copied.secret, secret);
  await j.screenshot(page, 'keys-wallets');
  await panel.getByTestId('keys-secret-hide').click();
  assert.equal(await panel.getByTestId('keys-fresh-secret').count(), 0);
  const keyRow = panel.locator(`[data-testid="keys-api-row"][data-key="${copied.key}"]`);
  await keyRow.getByTestId('keys-api-label').fill('market maker bot');
  await page.reload();
  await panel.getByTestId('keys-api-row').first().waitFor();
  assert.equal(await keyRow.getByTestId('keys-api-label').inputValue(), 'market maker bot');
  assert.equal(await panel.getByTestId('keys-fresh-secret').count(), 0, 'the secret is not shown again');

  await panel.getByTestId('keys-passphrase').fill('correct horse battery');
  await panel.getByTestId('keys-lock').click();
  await panel.getByTestId('keys-locked').waitFor();
  await page.reload();
  await page.getByTestId('keys-panel').waitFor();
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok(!storage.toLowerCase().includes(SECOND_KEY), 'no private key in plain text at rest');
  assert.ok(!storage.includes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'));
  assert.equal(await panel.getByTestId('keys-wallet').count(), 0);

  await panel.getByTestId('keys-passphrase').fill('wrong horse battery');
  await panel.getByTestId('keys-unlock').click();
  assert.match(await panel.getByTestId('keys-error').innerText(), /Wrong passphrase/);
  await panel.getByTestId('keys-passphrase').fill('correct horse battery');
  await panel.getByTestId('keys-unlock').click();
  await panel.getByTestId('keys-message').getByText('Unlocked 2 wallet(s).').waitFor();
  assert.deepEqual(await panel.getByTestId('keys-wallet').evaluateAll((els) => els.map((e) => e.getAttribute('data-address'))), [FIRST, SECOND]);
});
