// Issue 24: the terminal's Agents view. The operator issues an agent token in the terminal, an agent
// app (the MCP SDK's own client over Streamable HTTP) makes tool calls with it, the audit log in the
// view shows each call with the token that made it, and a token revoked in the view is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventually, startJourney, toast, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

async function agentClient(token: string): Promise<Client> {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${j.ready.trading}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

test('a token issued in the Agents view drives an MCP agent whose calls show in the audit log with that token; revoked there, it is refused', async () => {
  const { page } = await j.newTrader();
  await page.getByTestId('tab-agents').click();
  await page.getByTestId('agents-to-admin').click();
  await page.getByTestId('admin-token').fill(j.ready.operatorToken);
  await page.getByTestId('admin-token-use').click();
  await page.getByTestId('tab-agents').click();

  await page.getByTestId('agent-name').fill('e2e-bot');
  await page.getByTestId('agent-limit-notional').fill('250');
  await page.getByTestId('agent-issue').click();
  const token = (await page.getByTestId('agent-token-value').innerText()).trim();
  assert.match(token, /^agt_/);
  await page.getByTestId('agent-issued-close').click();
  const row = page.locator('[data-testid="agents-table"] tr[data-agent="agent-1"]');
  await row.waitFor();
  assert.match(await row.innerText(), /e2e-bot[\s\S]*≤ 250/);

  const client = await agentClient(token);
  try {
    const markets = (await client.callTool({ name: 'list_markets', arguments: { query: 'bitcoin' } })) as unknown as { structuredContent: { markets: Array<{ outcomes: Array<{ tokenId: string }> }> } };
    const tokenId = markets.structuredContent.markets[0]!.outcomes[0]!.tokenId;
    await client.callTool({ name: 'get_book', arguments: { token_id: tokenId, depth: 3 } });
    // Over the 250 notional limit: a tool error, logged as one.
    const refused = (await client.callTool({ name: 'place_order', arguments: { token_id: tokenId, side: 'BUY', size: '1000', price: '0.5' } })) as { isError?: boolean };
    assert.equal(refused.isError, true);

    const audit = page.locator('[data-testid="audit-table"] tbody tr');
    await eventually('three calls in the audit log', async () => (await audit.count()) === 3);
    // Newest first, each with the first characters of the token that made it.
    assert.deepEqual(await audit.evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-tool'), r.getAttribute('data-ok')])), [
      ['place_order', 'false'],
      ['get_book', 'true'],
      ['list_markets', 'true'],
    ]);
    for (const t of await audit.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-token')))) assert.ok(t && token.startsWith(t), `row token ${t} is a prefix of the issued token`);
    assert.match(await audit.first().innerText(), /limit_exceeded/);
    assert.match(await audit.first().innerText(), /e2e-bot/);

    // A second agent's calls, then the filter keeps only the first agent's.
    const other = (await fetch(`${j.ready.trading}/admin/agents`, { method: 'POST', headers: { authorization: `Bearer ${j.ready.operatorToken}`, 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ name: 'other' }) }).then((r) => r.json())) as { token: string };
    const second = await agentClient(other.token);
    await second.callTool({ name: 'get_balance', arguments: {} });
    await second.close();
    await eventually('the other agent’s call', async () => (await audit.count()) === 4);
    await page.getByTestId('audit-filter').selectOption('agent-1');
    await eventually('the filter', async () => (await audit.count()) === 3);
    await j.screenshot(page, 'issue24-agents-view');
    const axe = await new AxeBuilder({ page }).include('[data-testid="agents"]').withTags(['wcag2a', 'wcag2aa']).analyze();
    assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`), [], 'no serious/critical accessibility violation in the view');

    await row.getByTestId('agent-revoke').click();
    await page.getByTestId('agent-revoke-yes').click();
    await toast(page, 'Agent token revoked').waitFor();
    await eventually('the row marked revoked', async () => (await row.getAttribute('data-state')) === 'revoked');
    await assert.rejects(client.callTool({ name: 'get_balance', arguments: {} }), /401|revoked/);
    await assert.rejects(agentClient(token), /401|revoked/);
  } finally {
    await client.close().catch(() => undefined);
  }
});
