#!/usr/bin/env node
// `npm run mcp -- [flags]`: the MCP server on stdio (engine/mcp/mcpCli.ts), run from source through tsx.
// Its stdout is the MCP channel: npm's own banner is kept off it by `npm run --silent` (docs/agents.md).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../engine/mcp/mcpCli.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', entry, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
