// Which command runs the headless exchange: the compiled engine in dist/ (built by `npm install`'s
// prepare step, or `npm run build:engine`) when it is at least as new as the sources, so a start pays
// no TypeScript transpilation; otherwise the sources through tsx, so an edit is never shadowed by a
// stale build. Used by scripts/exchange.mjs and by the benchmark (which must know the engine's pid).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(dir, suffix) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    if (s.isDirectory()) t = Math.max(t, newest(p, suffix));
    else if (p.endsWith(suffix)) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

/** Node arguments (before the engine's own flags) that start the engine, and whether they use dist/. */
export function engineEntry() {
  const stamp = join(root, 'dist', '.engine-build-stamp');
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const engine = join(root, 'engine');
  // .node: a rebuilt crypto addon (npm run build:native) also makes dist/ stale until build:engine copies it.
  const sources = Math.max(newest(engine, '.ts'), newest(engine, '.mjs'), newest(engine, '.node'), newest(join(root, 'resources', 'contracts'), '.sol'));
  if (built >= sources) return { compiled: true, args: [join(root, 'dist', 'engine', 'cli.js')] };
  return { compiled: false, args: ['--import', 'tsx', join(root, 'engine', 'cli.ts')] };
}
