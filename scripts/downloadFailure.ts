/**
 * The one line `npm run package` prints when electron-builder stops because a download failed (no
 * network, or no route to the host): what it could not download, from where, and why. electron-builder
 * reports the failure as `⨯ <error>` after the step it was in, often without the URL, so the step says
 * what was being fetched: `packaging … electron=V` fetches the Electron binary, `downloading url=…` one
 * of its tools (AppImage, fpm), `preparing moduleName=M` Electron's headers or a prebuilt M for Electron.
 */

/** Network failures: the error codes of Node's sockets and DNS, and HTTP statuses of a failed fetch. */
const NETWORK = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up|Response code (?:4|5)\d\d|status code (?:4|5)\d\d)\b/i;

export interface DownloadContext {
  electronVersion: string;
  platform?: string;
  arch?: string;
}

/** The line, or undefined when the output shows no failed download (another error is not ours to rename). */
export function downloadFailureLine(output: string, ctx: DownloadContext): string | undefined {
  const lines = output.split(/\r?\n/);
  const at = lines.findIndex((l) => /^\s*⨯/.test(l) && NETWORK.test(l));
  if (at < 0) return undefined;
  const failed = lines[at]!;
  const reason = (/^\s*⨯\s*(.*?)(?:\s+failedTask=.*)?$/.exec(failed)?.[1] ?? failed).trim().slice(0, 160);
  const platform = ctx.platform ?? 'linux';
  const arch = ctx.arch ?? 'x64';
  let what = 'a file electron-builder needs';
  for (let i = at - 1; i >= 0; i--) {
    const l = lines[i]!;
    const url = /\bdownloading\s+url=(\S+)/.exec(l)?.[1];
    if (url) {
      what = `${url.slice(url.lastIndexOf('/') + 1)} (${url})`;
      break;
    }
    const electron = /\bpackaging\b.*\belectron=(\S+)/.exec(l)?.[1];
    if (electron) {
      what = electronBinaryName(electronZip(electron, platform, arch));
      break;
    }
    const module = /\bpreparing\s+moduleName=(\S+)/.exec(l)?.[1];
    if (module) {
      what = `Electron ${ctx.electronVersion}'s headers or a prebuilt ${module} for it (rebuilding native modules for Electron)`;
      break;
    }
  }
  return failureLine(what, reason);
}

/** The Electron release archive electron-builder packages, and where it downloads it from. */
export function electronZip(version: string, platform = 'linux', arch = 'x64'): { version: string; file: string; url: string } {
  const file = `electron-v${version}-${platform}-${arch}.zip`;
  return { version, file, url: `https://github.com/electron/electron/releases/download/v${version}/${file}` };
}

export function electronBinaryName(z: { version: string; file: string; url: string }): string {
  return `the Electron ${z.version} binary ${z.file} (${z.url})`;
}

export function failureLine(what: string, reason: string): string {
  return `npm run package: could not download ${what}: ${reason.replace(/\.$/, '')}. Run it where that can be downloaded (the desktop packages need it).`;
}
