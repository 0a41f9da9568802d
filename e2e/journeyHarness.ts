// Shared setup of the e2e journeys: a real engine in-process on a temp data directory, Debian's
// Chromium driven by playwright-core, and small waiting helpers (playwright-core has no `expect`).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ensureBrowser } from '../scripts/findBrowser.mjs';
import { createEngine, type ChainMode, type Engine, type EngineConfig, type ReadyLine } from '../engine/index.js';

// `npm test` finds (or installs) the browser and passes it as CHROMIUM_PATH; a journey run on its own searches too.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? ensureBrowser();
export const ARTIFACTS = fileURLToPath(new URL('../test-results/', import.meta.url));

/** The window a trader's page opens at. */
export const DEFAULT_VIEWPORT = { width: 1440, height: 900 } as const;
/** The sizes the journeys screenshot at: the smallest supported window, the default one and a large one. */
export const SCREENSHOT_SIZES = [
  [1024, 700],
  [1440, 900],
  [1920, 1080],
] as const;
/** Every supported window size, the small laptop ones included, smallest first. */
export const SUPPORTED_SIZES = [
  [1024, 700],
  [1280, 720],
  [1366, 768],
  [1440, 900],
  [1920, 1080],
] as const;

export interface Trader {
  context: BrowserContext;
  page: Page;
}

export interface Journey {
  engine: Engine;
  /** The engine's data directory (tapes live in its `tapes/`). */
  dataDir: string;
  ready: ReadyLine;
  appUrl: string;
  browser: Browser;
  newTrader(): Promise<Trader>;
  admin<T>(path: string, body: unknown): Promise<T>;
  screenshot(page: Page, name: string): Promise<string>;
  /** Stops the engine (the pages stay open), as a crash or a quit would. */
  stopEngine(): Promise<void>;
  /** Starts the engine again on the same port and data directory. */
  restartEngine(): Promise<void>;
  close(): Promise<void>;
}

/** `config` adds engine settings (e.g. the mirror's `--upstream-*`) to the journey's own. */
export async function startJourney(opts: { chain?: ChainMode; config?: Partial<EngineConfig> } = {}): Promise<Journey> {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-exchange-'));
  // The journeys rely on a frozen demo book: no simulated participants.
  const settings = (port: number): Partial<EngineConfig> => ({ ...opts.config, dataDir, chain: opts.chain ?? 'none', port, simulation: false });
  let engine = await createEngine(settings(0));
  let browser: Browser | undefined;
  let stopped = false;
  try {
    let ready = await engine.listen();
    const port = Number(new URL(ready.trading).port);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const b = browser;
    const appUrl = `${ready.trading}/app/`;
    const contexts: BrowserContext[] = [];
    return {
      get engine() {
        return engine;
      },
      get ready() {
        return ready;
      },
      appUrl,
      dataDir,
      browser: b,
      async newTrader() {
        // A context per trader: its own localStorage, so its own burner wallet and API key.
        const context = await b.newContext({ viewport: { ...DEFAULT_VIEWPORT } });
        contexts.push(context);
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        await page.goto(appUrl);
        await page.getByTestId('engine-status').getByText('engine').waitFor();
        return { context, page };
      },
      async admin<T>(path: string, body: unknown): Promise<T> {
        // connection: close — a kept-alive socket held the engine's close (and the test process) for a minute.
        const res = await fetch(`${ready.trading}/admin${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ready.operatorToken}`, 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as T;
        if (!res.ok) throw new Error(`POST /admin${path} → ${res.status} ${JSON.stringify(json)}`);
        return json;
      },
      async screenshot(page, name) {
        mkdirSync(ARTIFACTS, { recursive: true });
        const path = join(ARTIFACTS, `${name}.png`);
        await page.screenshot({ path });
        return path;
      },
      async stopEngine() {
        await engine.close();
        stopped = true;
      },
      async restartEngine() {
        engine = await createEngine(settings(port));
        ready = await engine.listen();
        stopped = false;
      },
      async close() {
        for (const c of contexts) await c.close().catch(() => undefined);
        await b.close().catch(() => undefined);
        if (!stopped) await engine.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
}

/** Creates a burner wallet and an API key in the terminal; returns the wallet address. */
export async function onboardTrader(page: Page): Promise<string> {
  await page.getByTestId('wallet-create').click();
  const address = await page.getByTestId('wallet-address').getAttribute('data-address');
  if (!address) throw new Error('the wallet panel shows no address after creating a wallet');
  await page.getByTestId('apikey-create').click();
  await page.getByTestId('apikey-row').first().waitFor();
  // The first key grants the paper balance; the wallet panel shows it once the key is active.
  await page.getByTestId('wallet-balance').locator('b').waitFor();
  return address;
}

/** A fresh binary Yes/No market at a 0.01 tick. */
export function binaryMarket(j: Journey, question: string, minOrderSize = '5'): Promise<{ condition_id: string }> {
  return j.admin<{ condition_id: string }>('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize });
}

/** Two traders, each in its own browser context, both onboarded (wallet, API key, paper balance). */
export async function twoOnboardedTraders(j: Journey): Promise<{ a: Trader; b: Trader }> {
  const a = await j.newTrader();
  const b = await j.newTrader();
  await onboardTrader(a.page);
  await onboardTrader(b.page);
  return { a, b };
}

/** Sets the page's window to each size in turn (the screenshot sizes unless told) and runs `check` there. */
export async function atEachSize(page: Page, check: (width: number, height: number) => Promise<void>, sizes: readonly (readonly [number, number])[] = SCREENSHOT_SIZES): Promise<void> {
  for (const [w, h] of sizes) {
    await page.setViewportSize({ width: w, height: h });
    await check(w, h);
  }
}

/** A screenshot `<name>-<w>x<h>` at each of the screenshot sizes; the window is left at the largest. */
export function screenshotAtEachSize(j: Journey, page: Page, name: string): Promise<void> {
  return atEachSize(page, async (w, h) => {
    await j.screenshot(page, `${name}-${w}x${h}`);
  });
}

/** The toasts (sonner) on the page that contain `text`. */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

/** Clicks an export button and returns the text of the file it downloads. */
export async function exportCsv(page: Page, testId: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return readFile((await download.path())!, 'utf8');
}

/** Shows one of the side column's tabs below the ticket: the wallet (default), keys at rest, or the Safe wizard. */
export async function showSideTab(page: Page, tab: 'wallet' | 'keys' | 'safe'): Promise<void> {
  await page.getByTestId(`side-tab-${tab}`).click();
}

/** Selects a market by its question through the search box, and an outcome. */
export async function selectMarket(page: Page, question: string, outcomeIndex = 0): Promise<void> {
  await page.getByTestId('market-search').fill(question);
  await page.getByTestId('market-row').filter({ hasText: question }).first().click();
  await page.getByTestId('market-question').getByText(question).waitFor();
  await page.getByTestId(`outcome-tab-${outcomeIndex}`).click();
}

export async function placeLimit(page: Page, o: { side: 'BUY' | 'SELL'; price: string; size: string; type?: string }): Promise<{ success: string | null; status: string | null }> {
  await page.getByTestId(o.side === 'BUY' ? 'ticket-side-buy' : 'ticket-side-sell').click();
  await page.getByTestId('ticket-price').fill(o.price);
  await page.getByTestId('ticket-size').fill(o.size);
  await page.getByTestId('ticket-type').selectOption(o.type ?? 'GTC');
  const before = await page.getByTestId('ticket-result').count();
  await page.getByTestId('ticket-submit').click();
  // Orders are confirmed in a dialog by default (issue 14): confirm it when it opens.
  const confirm = page.getByTestId('order-confirm');
  if (await confirm.waitFor({ timeout: 3000 }).then(() => true, () => false)) await confirm.click();
  // Wait for this submission's result (the result line is replaced on each placement).
  await page.waitForFunction(
    (hadResult) => {
      const el = document.querySelector('[data-testid="ticket-result"], [data-testid="ticket-error"]');
      const btn = document.querySelector('[data-testid="ticket-submit"]');
      return !!el && (!hadResult || !btn?.textContent?.includes('Signing')) && !btn?.textContent?.includes('Signing');
    },
    before > 0,
  );
  const err = page.getByTestId('ticket-error');
  if ((await err.count()) > 0) throw new Error(`placement failed: ${await err.innerText()}`);
  const result = page.getByTestId('ticket-result');
  return { success: await result.getAttribute('data-success'), status: await result.getAttribute('data-status') };
}

/** Polls until `fn` is truthy (the terminal refreshes server state every second). */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined | false | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
