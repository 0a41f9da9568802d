#!/usr/bin/env node
// `npm run exchange -- [flags]`: the headless exchange (flags: engine/cli.ts). dist/ when it is up to
// date, else the sources through tsx (see engineEntry.mjs).
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { engineEntry } from './engineEntry.mjs';

const entry = engineEntry();
if (entry.compiled) {
  await import(pathToFileURL(entry.args[0]).href);
} else {
  console.error('exchange: running from source (dist/ is missing or older than engine/; `npm run build:engine` makes starts faster)');
  const child = spawn(process.execPath, [...entry.args, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
