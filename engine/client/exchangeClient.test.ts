import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CLOB_AUTH_TYPES, ORDER_TYPES, clobAuthDomain, clobAuthMessage, orderDomain, orderTypedMessage, type SignedOrder } from '../protocol/eip712.js';
import { buildL2Signature } from '../protocol/hmac.js';
import { ClientHttpError } from './clientHttpError.js';
import { ExchangeClient } from './exchangeClient.js';

interface Seen {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

const account = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const CREDS = { key: '6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10', secret: 'tVeZMd8pFtb8CWJhcjGQ4D1ul-ZgjQaFhF4wBTRTXA0=', passphrase: 'a'.repeat(64) };
const CONFIG = {
  chainId: 31337,
  rpcUrl: null,
  contracts: { exchange: '0x00000000000000000000000000000000000000e1', negRiskExchange: '0x00000000000000000000000000000000000000e2' },
};

function fakeServer(route: (s: Seen) => { status?: number; json: unknown }) {
  const seen: Seen[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const s: Seen = { method: init?.method ?? 'GET', url: new URL(String(input)), headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body as string | undefined };
    seen.push(s);
    const r = route(s);
    return new Response(JSON.stringify(r.json), { status: r.status ?? 200 });
  }) as typeof fetch;
  return { seen, fetchImpl };
}

function assertL2(s: Seen, path: string) {
  const h = s.headers;
  assert.equal(h.SERVICE_API_KEY, CREDS.key);
  assert.equal(h.SERVICE_ADDRESS, account.address);
  assert.equal(h.SERVICE_SIGNATURE, buildL2Signature(CREDS.secret, h.SERVICE_TIMESTAMP!, s.method, path, s.body));
}

test('createApiKey signs ClobAuth for the exchange chain id and keeps the credentials', async () => {
  const { seen, fetchImpl } = fakeServer((s) => (s.url.pathname === '/config' ? { json: CONFIG } : { json: CREDS }));
  const c = new ExchangeClient({ baseUrl: 'http://x.test/', signer: account, fetch: fetchImpl });
  assert.deepEqual(await c.createApiKey(3), CREDS);
  assert.deepEqual(c.creds, CREDS);
  const post = seen.find((s) => s.url.pathname === '/auth/api-key')!;
  assert.equal(post.method, 'POST');
  assert.equal(post.body, undefined);
  const h = post.headers;
  const recovered = await recoverTypedDataAddress({
    domain: clobAuthDomain(31337),
    types: CLOB_AUTH_TYPES,
    primaryType: 'ClobAuth',
    message: clobAuthMessage(account.address, h.SERVICE_TIMESTAMP!, 3n),
    signature: h.SERVICE_SIGNATURE as `0x${string}`,
  });
  assert.equal(recovered, account.address);
  assert.equal(h.SERVICE_NONCE, '3');
});

test('createOrder reads tick size, neg-risk and contracts, and postOrder sends an L2-signed body owned by SERVICE_ADDRESS', async () => {
  const { seen, fetchImpl } = fakeServer((s) => {
    if (s.url.pathname === '/config') return { json: CONFIG };
    if (s.url.pathname === '/tick-size') return { json: { minimum_tick_size: 0.01 } };
    if (s.url.pathname === '/neg-risk') return { json: { neg_risk: true } };
    return { status: 201, json: { success: true, error_msg: '', order_hashes: [], error_code: null, order_id: '01J', status: 'live' } };
  });
  const c = new ExchangeClient({ baseUrl: 'http://x.test', signer: account, creds: CREDS, fetch: fetchImpl });
  const order = await c.createOrder({ tokenId: '123', price: '0.4', size: '5', side: 'BUY', conditionId: '0x' + '11'.repeat(32) });
  const recovered = await recoverTypedDataAddress({
    domain: orderDomain({ chainId: 31337, verifyingContract: CONFIG.contracts.negRiskExchange as `0x${string}` }),
    types: ORDER_TYPES,
    primaryType: 'Order',
    message: orderTypedMessage(order),
    signature: order.signature,
  });
  assert.equal(recovered, account.address);
  const result = await c.postOrder(order, 'GTD');
  assert.equal(result.order_id, '01J');
  const post = seen.at(-1)!;
  assert.equal(post.url.pathname, '/order');
  const body = JSON.parse(post.body!) as { owner: string; orderType: string; order: SignedOrder };
  assert.equal(body.owner, account.address);
  assert.equal(body.orderType, 'GTD');
  assert.equal(body.order.makerAmount, '2000000');
  assertL2(post, '/order');
  assert.equal(post.headers['content-type'], 'application/json');
});

test('getOpenOrders follows next_cursor until LTE= and signs the path without the query', async () => {
  const pages: Record<string, { next_cursor: string; data: unknown[] }> = {
    'MA==': { next_cursor: 'Mg==', data: [{ id: 'a' }, { id: 'b' }] },
    'Mg==': { next_cursor: 'LTE=', data: [{ id: 'c' }] },
  };
  const { seen, fetchImpl } = fakeServer((s) => ({ json: { limit: 2, count: 2, ...pages[s.url.searchParams.get('next_cursor')!]! } }));
  const c = new ExchangeClient({ baseUrl: 'http://x.test', signer: account, creds: CREDS, fetch: fetchImpl });
  const all = await c.getOpenOrders({ market: '0xabc' });
  assert.deepEqual(all.map((o) => o.id), ['a', 'b', 'c']);
  assert.equal(seen.length, 2);
  for (const s of seen) {
    assert.equal(s.url.pathname, '/data/orders');
    assert.equal(s.url.searchParams.get('market'), '0xabc');
    assertL2(s, '/data/orders');
  }
});

test('a non-2xx answer throws ClientHttpError with the status, code and body', async () => {
  const { fetchImpl } = fakeServer(() => ({ status: 401, json: { error: 'api_key_revoked', message: 'SERVICE_API_KEY has been revoked.' } }));
  const c = new ExchangeClient({ baseUrl: 'http://x.test', signer: account, creds: CREDS, fetch: fetchImpl });
  await assert.rejects(c.cancelOrder('01J'), (e: unknown) => {
    assert.ok(e instanceof ClientHttpError);
    assert.equal(e.status, 401);
    assert.equal(e.code, 'api_key_revoked');
    assert.deepEqual(e.body, { error: 'api_key_revoked', message: 'SERVICE_API_KEY has been revoked.' });
    assert.match(e.message, /DELETE http:\/\/x.test\/order → 401 api_key_revoked/);
    return true;
  });
});

test('cancel routes, operator routes and data routes use the contract paths and bodies', async () => {
  const { seen, fetchImpl } = fakeServer(() => ({ json: {} }));
  const c = new ExchangeClient({ baseUrl: 'http://x.test', signer: account, creds: CREDS, operatorToken: 'tok', fetch: fetchImpl });
  await c.cancelOrder('01A');
  await c.cancelOrders(['01A', '01B']);
  await c.cancelAll();
  await c.cancelMarketOrders({ market: '0xm' });
  await c.lookupOrders(['01A']);
  await c.getOrder('01A');
  await c.redeem('0xc');
  await c.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: '7' });
  await c.createMarket({ question: 'Q?', tickSize: '0.01', minOrderSize: '5' });
  await c.pause();
  await c.resume('0xc');
  await c.resolve('0xc', 1);
  await c.faucet(account.address, '250.5');
  await c.getClock();
  await c.advanceClock({ seconds: 60 });
  await c.positions({ user: account.address, market: ['0x1', '0x2'] });
  await c.holders({ market: '0x1', limit: 5 });
  await c.getPrice('7', 'BUY');
  const calls = seen.map((s) => `${s.method} ${s.url.pathname}${s.url.search} ${s.body ?? ''}`);
  assert.deepEqual(calls, [
    'DELETE /order {"orderID":"01A"}',
    'DELETE /orders ["01A","01B"]',
    'DELETE /cancel-all ',
    'DELETE /cancel-market-orders {"market":"0xm"}',
    'POST /data/orders/lookup [{"orderId":"01A"}]',
    'GET /data/order/01A ',
    'POST /redeem {"conditionId":"0xc"}',
    'GET /balance-allowance?asset_type=CONDITIONAL&token_id=7 ',
    'POST /admin/markets {"question":"Q?","tickSize":"0.01","minOrderSize":"5"}',
    'POST /admin/pause {}',
    'POST /admin/resume {"conditionId":"0xc"}',
    'POST /admin/markets/0xc/resolve {"winningOutcomeIndex":1}',
    `POST /admin/faucet {"address":"${account.address}","amount":"250.5"}`,
    'GET /admin/clock ',
    'POST /admin/clock/advance {"seconds":60}',
    `GET /data-api/positions?user=${account.address}&market=0x1%2C0x2 `,
    'GET /data-api/holders?market=0x1&limit=5 ',
    'GET /price?token_id=7&side=BUY ',
  ]);
  for (const s of seen.slice(0, 4)) assertL2(s, s.url.pathname);
  assert.equal(seen[4]!.headers.SERVICE_API_KEY, undefined, 'batch lookup needs no authentication');
  for (const s of seen.slice(8, 15)) assert.equal(s.headers.authorization, 'Bearer tok');
});
