import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const here = dirname(new URL(import.meta.url).pathname);

/** Every production .ts file under `dir` (tests excluded: they may import whatever they drive). */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The import graph of `files` (type-only imports included: a type cycle is a design cycle too). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    const targets = importedFiles
      .filter((r) => r.fileName.startsWith('.'))
      .map((r) => resolve(dirname(f), r.fileName.replace(/\.js$/, '.ts')))
      .filter((t) => known.has(t));
    graph.set(f, targets);
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): the import circles. */
function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

test('no file of engine/services imports a file that leads back to it', () => {
  const circles = importCircles(importGraph(sources(here))).map((c) => c.map((f) => relative(here, f)));
  assert.deepEqual(circles, [], `import circles in engine/services (a service gets its peers in its constructor; a link back up is an event):\n${circles.map((c) => '  ' + c.join(' → ')).join('\n')}`);
});

test('the circle finder sees a circle through three files and none in a chain', () => {
  const circle = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.deepEqual(importCircles(circle), [['a', 'b', 'c']]);
  assert.deepEqual(importCircles(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), []);
});
