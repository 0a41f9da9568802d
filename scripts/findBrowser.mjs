// Where a Chromium-family browser is on this machine, for the e2e journeys and `npm start`.
// Plain ESM (no TypeScript): `npm test` runs scripts/test.mjs with node alone, before anything is built.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** Names a Chromium-family browser goes by on PATH, in the order we prefer them. */
export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

function isExecutableFile(p) {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Playwright's own Chromium, when `playwright-core install chromium` has put one in its cache. */
export function playwrightChromium() {
  try {
    const { chromium } = createRequire(import.meta.url)('playwright-core');
    const p = chromium.executablePath();
    return p && existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The browser to use: CHROMIUM_PATH first (an explicit choice, so a wrong one is reported, not
 * skipped), then Playwright's own download, then the system browsers on PATH.
 * Returns { path, source } or { missing: reason } — never throws.
 */
export function findBrowser({ env = process.env, playwright = playwrightChromium } = {}) {
  if (env.CHROMIUM_PATH) {
    return isExecutableFile(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' }
      : { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` };
  }
  const own = playwright();
  if (own) return { path: own, source: "Playwright's browser cache" };
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of BROWSER_NAMES) {
      const p = join(dir, name);
      if (isExecutableFile(p)) return { path: p, source: `${name} on PATH` };
    }
  }
  return { missing: `no ${BROWSER_NAMES.join(' / ')} on PATH, no CHROMIUM_PATH, no Playwright browser` };
}

/** How this platform can install a browser, or undefined when it cannot do it unattended. */
export function installPlan({ platform = process.platform, uid = process.getuid?.(), exists = existsSync } = {}) {
  if (platform === 'linux' && uid === 0 && exists('/etc/debian_version') && exists('/usr/bin/apt-get')) {
    return {
      say: "No browser found for the e2e journeys: installing Debian's chromium with apt-get (once).",
      steps: [['apt-get', ['update', '-qq']], ['apt-get', ['install', '-y', '-qq', 'chromium']]],
      env: { DEBIAN_FRONTEND: 'noninteractive' },
    };
  }
  const cli = (() => {
    try {
      // cli.js is the package's bin, not one of its exports: find it beside package.json.
      const cliPath = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
      return existsSync(cliPath) ? cliPath : undefined;
    } catch {
      return undefined;
    }
  })();
  if (!cli) return undefined;
  return {
    say: "No browser found for the e2e journeys: installing Playwright's Chromium (once).",
    steps: [[process.execPath, [cli, 'install', 'chromium']]],
    env: {},
  };
}

/** The one line that says what to install when nothing worked. */
export const INSTALL_HINT =
  'No browser for the e2e journeys. Install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`; elsewhere `npx playwright-core install chromium`) or set CHROMIUM_PATH to a Chrome/Chromium binary.';

/** findBrowser(), installing one first where the platform allows. Returns the path or throws with INSTALL_HINT. */
export function ensureBrowser({ log = (line) => console.log(line) } = {}) {
  const found = findBrowser();
  if (found.path) return found.path;
  const plan = installPlan();
  if (plan) {
    log(plan.say);
    for (const [cmd, args] of plan.steps) {
      const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...plan.env } });
      if (r.status !== 0) break;
    }
    const again = findBrowser();
    if (again.path) return again.path;
  }
  throw new Error(`${INSTALL_HINT} (${found.missing})`);
}
