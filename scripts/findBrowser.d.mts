export declare const BROWSER_NAMES: string[];
export declare const INSTALL_HINT: string;
export type BrowserSearch = { path: string; source: string; missing?: undefined } | { missing: string; path?: undefined; source?: undefined };
export declare function playwrightChromium(): string | undefined;
export declare function findBrowser(opts?: { env?: NodeJS.ProcessEnv; playwright?: () => string | undefined }): BrowserSearch;
export declare function installPlan(opts?: { platform?: string; uid?: number; exists?: (p: string) => boolean }):
  | { say: string; steps: [string, string[]][]; env: Record<string, string> }
  | undefined;
export declare function ensureBrowser(opts?: { log?: (line: string) => void }): string;
