/**
 * The desktop shell (Electron preload) exposes `window.desktop` (electron/ipc.ts DesktopApi). In the
 * plain web app it is absent; `npm start` hands the operator token over through a one-time code in the
 * URL fragment (takeTokenFromBootstrap).
 */
export interface DesktopEngineInfo {
  trading: string;
  operatorToken: string;
  dataDir: string;
  chainId: number;
  appVersion?: string;
}

interface DesktopBridge {
  isDesktop: true;
  getEngineInfo(): Promise<DesktopEngineInfo>;
  openExternal(url: string): Promise<{ opened: boolean }>;
  /** Secret storage with Electron safeStorage (electron/ipc.ts); absent from older desktop builds. */
  secretStorage?(): Promise<{ available: boolean; backend?: string }>;
  encryptSecret?(plaintext: string): Promise<string>;
  decryptSecret?(ciphertext: string): Promise<string>;
}

const TOKEN_KEY = 'sandbox-terminal.operatorToken';

export function desktopBridge(): DesktopBridge | undefined {
  const d = (window as { desktop?: DesktopBridge }).desktop;
  return d && d.isDesktop ? d : undefined;
}

/**
 * `npm start` opens the terminal with `#bootstrap=<one-time code>` (never the token itself: a command
 * line is readable by every local user). The page trades the code once at POST /admin/bootstrap for
 * the operator token, keeps it for this browser session, and cleans the URL.
 */
export async function takeTokenFromBootstrap(): Promise<string | undefined> {
  const m = /(?:^#|&)bootstrap=([^&]+)/.exec(window.location.hash);
  if (!m) return undefined;
  history.replaceState(null, '', window.location.pathname + window.location.search);
  try {
    const res = await fetch(new URL('../admin/bootstrap', window.location.href), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: decodeURIComponent(m[1]!) }),
    });
    if (!res.ok) return undefined;
    const { operatorToken } = (await res.json()) as { operatorToken?: unknown };
    if (typeof operatorToken !== 'string') return undefined;
    sessionStorage.setItem(TOKEN_KEY, operatorToken);
    return operatorToken;
  } catch {
    return undefined;
  }
}

export async function loadOperatorToken(): Promise<string | undefined> {
  const fromBootstrap = await takeTokenFromBootstrap();
  if (fromBootstrap) return fromBootstrap;
  const bridge = desktopBridge();
  if (bridge) {
    try {
      return (await bridge.getEngineInfo()).operatorToken;
    } catch {
      // fall through to a token the user pasted
    }
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function rememberOperatorToken(token: string | undefined): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}
