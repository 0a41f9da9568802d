import type { FastifyInstance, FastifyReply, FastifySchema } from 'fastify';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../engineContext.js';

/**
 * Where the terminal's web build lands (`npm run build:renderer`, vite outDir): renderer/dist at the
 * project root. This file runs from engine/http/routes/ (sources) or dist/engine/http/routes/ (the
 * compiled engine `npm run exchange` prefers), so the root is the nearest ancestor holding
 * renderer/index.html, not a fixed number of levels up.
 */
export function rendererDistDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'renderer', 'index.html'))) return join(dir, 'renderer', 'dist');
    const up = dirname(dir);
    if (up === dir) return fileURLToPath(new URL('../../../renderer/dist', import.meta.url));
    dir = up;
  }
}

export const DEFAULT_RENDERER_DIST = rendererDistDir();

export const APP_PREFIX = '/app';

// The terminal's files are not part of the API: keep them out of the OpenAPI document (@fastify/swagger's `hide`).
const HIDDEN = { hide: true } as FastifySchema;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/**
 * The terminal's Content-Security-Policy: its own origin only (the engine serves the page, the API and
 * the streams from one listener, so 'self' covers http and ws), never framed (clickjacking of the
 * ticket). Styles allow inline because the toast and dialog libraries inject <style> elements; scripts
 * do not (Vite's build has no inline script).
 */
export function terminalCsp(): string {
  // The wallet (wagmi) reads the chain at GET /config's rpcUrl, the engine's own guarded /rpc: 'self'.
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the terminal's web build at /app/. Client-side routes (paths without a file extension) fall
 * back to index.html so deep links survive a reload; a missing asset is a JSON 404 like every other
 * miss. The build is looked up per request, so `npm run build:renderer` while the engine runs is enough.
 */
export async function rendererRoutes(app: FastifyInstance, ctx: EngineContext, opts: { distDir?: string } = {}): Promise<void> {
  if (!ctx.config.serveRenderer) return;
  const root = resolve(opts.distDir ?? DEFAULT_RENDERER_DIST);
  const indexPath = join(root, 'index.html');

  const sendFile = async (reply: FastifyReply, path: string): Promise<void> => {
    const body = await readFile(path);
    // Vite fingerprints everything under assets/, so those never change; index.html must always revalidate.
    const immutable = path.startsWith(join(root, 'assets') + sep);
    void reply
      .header('content-type', contentTypeOf(path))
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', terminalCsp())
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer');
    await reply.send(body);
  };

  const notBuilt = () =>
    new ApiError('renderer_not_built', `The terminal is not built (no ${indexPath}). Run \`npm run build:renderer\`, then reload /app/.`);

  app.get(APP_PREFIX, { schema: HIDDEN }, async (req, reply) => {
    const q = req.url.indexOf('?');
    return reply.redirect(APP_PREFIX + '/' + (q >= 0 ? req.url.slice(q) : ''), 302);
  });

  app.get(`${APP_PREFIX}/*`, { schema: HIDDEN }, async (req, reply) => {
    if (!(await isFile(indexPath))) throw notBuilt();
    const wildcard = (req.params as { '*'?: string })['*'] ?? '';
    let rel: string;
    try {
      rel = decodeURIComponent(wildcard);
    } catch {
      throw new ApiError('not_found', `No terminal file at ${APP_PREFIX}/${wildcard}: the path is not valid URL encoding.`);
    }
    const target = resolve(root, rel);
    // Never serve outside the build directory (../ or encoded traversal).
    if (target !== root && !target.startsWith(root + sep)) {
      throw new ApiError('not_found', `No terminal file at ${APP_PREFIX}/${wildcard}.`);
    }
    if (rel !== '' && (await isFile(target))) return sendFile(reply, target);
    if (rel === '' || extname(rel) === '') return sendFile(reply, indexPath);
    throw new ApiError('not_found', `No terminal file at ${APP_PREFIX}/${rel}. Rebuild the terminal with \`npm run build:renderer\` if it should exist.`);
  });
}
