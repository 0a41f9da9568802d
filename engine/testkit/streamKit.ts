import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrivateKeyAccount } from 'viem/accounts';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../engine.js';
import { ManualClock } from '../services/clock.js';
import type { Market } from '../services/markets/marketService.js';
import { signedBody, units, type OrderSpec } from './orderKit.js';
import type { PlacementResult } from '../services/orders/orderService.js';

export interface Creds {
  key: string;
  secret: string;
  passphrase: string;
}

/** A listening engine (no chain) with one market and funded keys, for the stream tests. */
/** The client library's header builders (the http layer may not import the client; its tests hand them in). */
export interface HeaderBuilders {
  l1(account: PrivateKeyAccount, chainId: number, nonce: number, timestamp: number): Promise<Record<string, string>>;
  l2(creds: Creds, address: string, req: { method: string; path: string; body?: string; timestamp: number }): Record<string, string>;
}

export class StreamTestEngine {
  constructor(private readonly headers: HeaderBuilders) {}

  readonly clock = new ManualClock(Date.UTC(2030, 0, 1));
  engine!: Engine;
  market!: Market;
  port = 0;
  readonly creds = new Map<string, Creds>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'streams-'));

  async start(accounts: PrivateKeyAccount[]): Promise<this> {
    await this.boot();
    this.market = await this.engine.ctx.markets.create({ question: 'Will the streams stream?', tickSize: 10_000n, minOrderSize: 1_000_000n }, { waitForChain: false });
    for (const a of accounts) {
      const res = await this.engine.app.inject({ method: 'POST', url: '/auth/api-key', headers: await this.headers.l1(a, this.engine.ctx.config.chainId, 0, this.nowSec()) });
      assert.equal(res.statusCode, 200, res.body);
      this.creds.set(a.address, res.json() as Creds);
      await this.engine.ctx.orders.creditCollateral(a.address, units(100_000), 'stream test');
    }
    return this;
  }

  private async boot(): Promise<void> {
    this.engine = await createEngine({ dataDir: this.dir, chain: 'none', seedDemo: false, rateLimits: false, port: 0 }, { clock: this.clock });
    this.port = Number(new URL((await this.engine.listen()).trading).port);
    // Each change its own event, so tests can count them; the conflation and differential tests set the real interval.
    this.engine.ctx.streams.limits.flushIntervalMs = 0;
  }

  /** Closes the engine and starts another on the same data directory a second later (keys and market persist). */
  async restart(): Promise<void> {
    await this.engine.close();
    this.clock.advance(1000);
    await this.boot();
  }

  nowSec(): number {
    return Math.floor(this.clock.nowMs() / 1000);
  }

  async close(): Promise<void> {
    await this.engine.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Places an order as `acct` through the order service (the same path as POST /order after its checks). */
  async place(acct: PrivateKeyAccount, spec: Omit<OrderSpec, 'market'>): Promise<PlacementResult> {
    const body = await signedBody(acct, { market: { ...this.market, winner: null }, ...spec });
    return this.engine.ctx.orders.place({ address: acct.address.toLowerCase() as `0x${string}`, apiKey: this.creds.get(acct.address)!.key }, body);
  }

  /** An L2 request through fastify. */
  l2(acct: PrivateKeyAccount, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...this.headers.l2(this.creds.get(acct.address)!, acct.address, { method, path: url, body: payload, timestamp: this.nowSec() }) };
    return this.engine.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }

  async book(tokenId: string): Promise<{ hash: string; bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }>; timestamp: string }> {
    const res = await this.engine.app.inject({ method: 'GET', url: `/book?token_id=${tokenId}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  async socket(channel: 'market' | 'user'): Promise<TestSocket> {
    return TestSocket.open(`ws://127.0.0.1:${this.port}/ws/${channel}`);
  }
}

/** A real `ws` client that keeps every message and lets a test wait for the next ones. */
export class TestSocket {
  readonly messages: unknown[] = [];
  private readonly waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === 'PONG') this.messages.push('PONG');
      else {
        const v = JSON.parse(text) as unknown;
        for (const m of Array.isArray(v) ? v : [v]) this.messages.push(m);
      }
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string): Promise<TestSocket> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestSocket(ws)));
      ws.once('error', reject);
    });
  }

  send(v: unknown): void {
    this.ws.send(typeof v === 'string' ? v : JSON.stringify(v));
  }

  /** Waits until `pred` holds (checked after every message), at most `ms`. */
  async until(pred: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  /** Everything the server sent since the last drain, up to its answer to a PING sent now (the socket keeps order). */
  async drain(): Promise<unknown[]> {
    const from = this.messages.length;
    this.send('PING');
    await this.until(() => this.messages.lastIndexOf('PONG') >= from);
    const out = this.messages.filter((m) => m !== 'PONG');
    this.messages.length = 0;
    return out;
  }

  close(): void {
    this.ws.close();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
