import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** The folder of the flow scripts (flows.py and one script per client). */
export const FLOW_SCRIPTS = new URL('./', import.meta.url).pathname;

export interface FlowLine {
  name: string;
  ok: boolean;
  error?: string;
  trace?: string;
}

export interface FlowRun {
  flows: Map<string, FlowLine>;
  stderr: string;
  code: number | null;
}

/** Answers a script's `ASK {json}` line (flows.ask): something only the node side can do, such as trading upstream. */
export type FlowAsk = (request: Record<string, unknown>) => Promise<unknown>;

/** The flow names a script declares (`@flow("…")`), so a flow that never reports fails too. */
export function declaredFlows(script: string): string[] {
  return [...readFileSync(join(FLOW_SCRIPTS, script), 'utf8').matchAll(/^@flow\("(.+)"\)$/gm)].map((m) => m[1]!);
}

/** Runs one flow script with `env` as FLOWS_ENV; collects its `FLOW` lines and answers its `ASK` lines on stdin. */
export function runFlowScript(python: string, script: string, env: object, ask?: FlowAsk): Promise<FlowRun> {
  return new Promise((resolve) => {
    const child = spawn(python, [join(FLOW_SCRIPTS, script)], { cwd: FLOW_SCRIPTS, env: { ...process.env, FLOWS_ENV: JSON.stringify(env), PYTHONDONTWRITEBYTECODE: '1' } });
    const flows = new Map<string, FlowLine>();
    let pending = '';
    let err = '';
    const onLine = (line: string) => {
      if (line.startsWith('FLOW ')) {
        const f = JSON.parse(line.slice(5)) as FlowLine;
        flows.set(f.name, f);
      } else if (line.startsWith('ASK ')) {
        const request = JSON.parse(line.slice(4)) as Record<string, unknown>;
        const answer = ask ? ask(request).then((value) => ({ ok: true, value }), (e: Error) => ({ ok: false, error: e.message })) : Promise.resolve({ ok: false, error: 'this run answers no ASK' });
        void answer.then((a) => child.stdin.write(JSON.stringify(a) + '\n'));
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      lines.forEach(onLine);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      if (pending) onLine(pending);
      resolve({ flows, stderr: err, code });
    });
  });
}

/** One test per declared flow of each script (under a suite named after its client), passing when the flow reported ok. */
export function describeFlows(scripts: ReadonlyArray<{ readonly script: string; readonly client: string }>, results: ReadonlyMap<string, FlowRun>): void {
  for (const { script, client } of scripts) {
    describe(client, () => {
      for (const name of declaredFlows(script)) {
        it(name, () => {
          const r = results.get(script)!;
          const f = r.flows.get(name);
          assert.ok(f, `${script} never reported this flow (exit ${r.code}):\n${r.stderr.slice(-3000)}`);
          assert.ok(f.ok, `${f.error}\n${f.trace ?? ''}`);
        });
      }
    });
  }
}
