/**
 * The desktop shell (Electron preload) exposes `window.desktop` (electron/ipc.ts DesktopApi). In the
 * plain web app it is absent; `npm start` can still hand the operator token over in the URL fragment,
 * which never reaches the server and is removed from the address bar right away.
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
}

const TOKEN_KEY = 'sandbox-terminal.operatorToken';

export function desktopBridge(): DesktopBridge | undefined {
  const d = (window as { desktop?: DesktopBridge }).desktop;
  return d && d.isDesktop ? d : undefined;
}

/** Reads `#operatorToken=…` once, keeps it for this browser session, and cleans the URL. */
export function takeTokenFromFragment(): string | undefined {
  const m = /(?:^#|&)operatorToken=([^&]+)/.exec(window.location.hash);
  if (!m) return undefined;
  const token = decodeURIComponent(m[1]!);
  sessionStorage.setItem(TOKEN_KEY, token);
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return token;
}

export async function loadOperatorToken(): Promise<string | undefined> {
  const fromFragment = takeTokenFromFragment();
  if (fromFragment) return fromFragment;
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
