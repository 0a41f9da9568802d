#!/usr/bin/env node
// Headless exchange: npm run exchange -- --port <n> --data-dir <dir> [--chain anvil|none|<json-rpc-url>]
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_RENDERER_DIST } from './http/routes/rendererRoutes.js';
import { runScenarioFast } from './services/scenarios/fastRun.js';
import { runReplaysFast } from './services/tapes/fastReplay.js';
import { readScenarioFile } from './services/scenarios/scenarioFile.js';
import { createEngine } from './engine.js';
import { checkListenHost, defaultDataDir, type ChainMode, type EngineConfig } from './config.js';

const USAGE = `usage: npm run exchange -- [--port <n>] [--data-dir <dir>] [--chain anvil|none|<json-rpc-url>]
                            [--host 127.0.0.1 [--allow-remote]] [--profile default|polymarket] [--no-demo] [--no-rate-limits]
                            [--order-version 1|2] [--no-sim] [--seed <n>] [--scenario <file.yaml|json>]
                            [--clock real|fast|stepped] [--speed <n>] [--start <unix ms|ISO time>] (--fast = --clock fast)
                            [--mirror <slug|condition id|URL>[,…]] [--latency-ms <n>]
                            [--upstream-clob <url>] [--upstream-gamma <url>] [--upstream-ws <url>]
                            [--record] [--replay <tape>[,…]] (docs/tapes.md)`;

function parseChain(v: string | undefined): ChainMode | undefined {
  if (v === undefined) return undefined;
  if (v === 'anvil' || v === 'none') return v;
  if (/^https?:\/\//.test(v)) return { rpcUrl: v };
  throw new Error(`--chain must be anvil, none or an http(s) JSON-RPC URL, not '${v}'`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      chain: { type: 'string' },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      profile: { type: 'string' },
      'order-version': { type: 'string' },
      'no-demo': { type: 'boolean' },
      'no-rate-limits': { type: 'boolean' },
      'no-sim': { type: 'boolean' },
      seed: { type: 'string' },
      scenario: { type: 'string' },
      fast: { type: 'boolean' },
      clock: { type: 'string' },
      speed: { type: 'string' },
      start: { type: 'string' },
      mirror: { type: 'string', multiple: true },
      'latency-ms': { type: 'string' },
      'upstream-clob': { type: 'string' },
      'upstream-gamma': { type: 'string' },
      'upstream-ws': { type: 'string' },
      record: { type: 'boolean' },
      replay: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.error(USAGE);
    return;
  }
  const partial: Partial<EngineConfig> = {};
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, not '${values.port}'`);
    partial.port = port;
  }
  if (values['data-dir']) partial.dataDir = values['data-dir'];
  const chain = parseChain(values.chain);
  if (chain) partial.chain = chain;
  if (values.host) {
    const warning = checkListenHost(values.host, values['allow-remote'] === true);
    if (warning) console.error(warning);
    partial.host = values.host;
  }
  if (values.profile) {
    if (values.profile !== 'default' && values.profile !== 'polymarket') throw new Error(`--profile must be default or polymarket`);
    partial.profile = values.profile;
  }
  if (values['order-version'] !== undefined) {
    // Only what GET /version reports (what clob-client-v2 signs): V1 and V2 orders are accepted either way.
    if (values['order-version'] !== '1' && values['order-version'] !== '2') throw new Error(`--order-version must be 1 or 2, not '${values['order-version']}'`);
    partial.orderVersion = values['order-version'] === '1' ? 1 : 2;
  }
  if (values['no-demo']) partial.seedDemo = false;
  if (values['no-rate-limits']) partial.rateLimits = false;
  if (values['no-sim']) partial.simulation = false;
  if (values.fast && values.clock !== undefined && values.clock !== 'fast') throw new Error(`--fast is --clock fast; it contradicts --clock ${values.clock}`);
  const clock = values.fast ? 'fast' : values.clock;
  if (clock !== undefined) {
    if (clock !== 'real' && clock !== 'fast' && clock !== 'stepped') throw new Error(`--clock must be real, fast or stepped, not '${clock}'`);
    partial.clock = clock;
  }
  if (values.speed !== undefined) {
    const speed = Number(values.speed);
    if (values.speed.trim() === '' || !Number.isFinite(speed)) throw new Error(`--speed must be a number such as 10, not '${values.speed}'`);
    partial.speed = speed;
  }
  if (values.start !== undefined) partial.clockStart = parseStart(values.start);
  if (values.seed !== undefined) {
    const seed = Number(values.seed);
    if (!/^\d+$/.test(values.seed) || !Number.isSafeInteger(seed)) throw new Error(`--seed must be a whole number ≥ 0, not '${values.seed}'`);
    partial.seed = seed;
  }
  if (values.mirror !== undefined) partial.mirrors = parseMirrors(values.mirror);
  if (values['latency-ms'] !== undefined) {
    if (!/^\d+$/.test(values['latency-ms'])) throw new Error(`--latency-ms must be a whole number of milliseconds such as 150, not '${values['latency-ms']}'`);
    partial.latencyMs = Number(values['latency-ms']);
  }
  if (values['upstream-clob'] !== undefined) partial.upstreamClob = values['upstream-clob'];
  if (values['upstream-gamma'] !== undefined) partial.upstreamGamma = values['upstream-gamma'];
  if (values['upstream-ws'] !== undefined) partial.upstreamWs = values['upstream-ws'];
  if (values.record) partial.record = true;
  if (values.replay !== undefined) {
    partial.replays = values.replay.flatMap((v) => v.split(',')).map((v) => v.trim());
    if (partial.replays.some((r) => r === '')) throw new Error('--replay takes tapes separated by commas (names under <data>/tapes/, shipped examples or paths), without empty entries');
  }
  const scenario = values.scenario === undefined ? undefined : readScenarioFile(values.scenario);
  if (partial.clock === 'fast' && !scenario && partial.replays?.length) {
    // The replays started with the engine; the run ends when the last of them has played.
    await runFast(partial, values['data-dir'] === undefined, (engine) => runReplaysFast(engine.ctx));
    return;
  }
  if (partial.clock === 'fast') {
    if (!scenario) throw new Error('--clock fast runs a scenario or replays to their end: add --scenario <file> or --replay <tape>');
    await runFast(partial, values['data-dir'] === undefined, (engine) => runScenarioFast(engine.ctx, scenario));
    return;
  }

  const engine = await createEngine(partial);
  const ready = await engine.listen();
  process.stdout.write(JSON.stringify(ready) + '\n');
  if (engine.ctx.config.serveRenderer) {
    const built = existsSync(join(DEFAULT_RENDERER_DIST, 'index.html'));
    console.error(built ? `terminal: ${ready.trading}/app/` : `terminal: not built (no ${DEFAULT_RENDERER_DIST}); run \`npm run build:renderer\`, then open ${ready.trading}/app/`);
  }
  if (scenario) await engine.ctx.scenarios.start({ scenario });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    engine
      .close()
      .then(() => process.exit(0))
      .catch((e) => {
        console.error(`shutdown after ${signal} failed:`, e);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** `--mirror a,b --mirror c`: every reference, in order, without blanks. */
function parseMirrors(values: readonly string[]): string[] {
  const refs = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (refs.some((r) => r === '')) throw new Error('--mirror takes public markets separated by commas (slug, condition id or polymarket.com URL), without empty entries');
  return refs;
}

/** `--start`: unix milliseconds or an ISO 8601 time. */
function parseStart(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`--start must be unix milliseconds or an ISO time such as 2030-01-01T00:00:00Z, not '${text}'`);
  return ms;
}

/**
 * --clock fast: a backtest without wall-clock waits, from the wall time of launch (or --start), on a
 * fresh temporary data directory unless --data-dir is given. The run's report and trade export are
 * kept: a temporary directory's run folder is copied to the default data directory's runs/ first.
 */
async function runFast(partial: Partial<EngineConfig>, temporary: boolean, run: (engine: Awaited<ReturnType<typeof createEngine>>) => Promise<{ runDir?: string }>): Promise<void> {
  const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'exchange-fast-')) : partial.dataDir!;
  const removeTemporary = () => {
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  };
  // Ctrl-C or a kill mid-run must not leave the temporary directory behind.
  const onSignal = (signal: NodeJS.Signals) => {
    removeTemporary();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', removeTemporary);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let engine: Awaited<ReturnType<typeof createEngine>> | undefined;
  try {
    engine = await createEngine({ chain: 'none', ...partial, dataDir, serveRenderer: false });
    const report = await run(engine);
    await engine.close();
    if (temporary && report.runDir) {
      const kept = join(defaultDataDir(), 'runs', engine.ctx.clockService.recorder!.runId);
      cpSync(report.runDir, kept, { recursive: true });
      report.runDir = kept;
    }
    process.stdout.write(JSON.stringify(report) + '\n');
  } finally {
    await engine?.close();
    removeTemporary();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  console.error(USAGE);
  process.exit(1);
});
