// Lint, and the layer rules of DEVELOPERS.md: imports point down only.
//   http → mcp → services → (book, store, chain) → protocol;  client → protocol;  renderer → protocol, client;
//   electron → the engine's public entry (engine/index.ts) only.
import tseslint from 'typescript-eslint';

const layer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

// A peer service, imported from another service folder as a value (only types may cross).
const peerServices = {
  group: ['../*/*Service.js', '../*/*Service'],
  allowTypeImports: true,
  message: 'a service receives its peers in its constructor (engine/engine.ts wires them): import only their types.',
};

const up = (names, why) => names.map((n) => ({ group: [`**/${n}/**`, `**/${n}`, `**/${n}.js`], message: why }));

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'renderer/dist/**', 'resources/contracts/build/**', '.data/**', '.tmp/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  layer(['engine/protocol/**/*.ts'], up(['book', 'store', 'chain', 'services', 'http', 'client'], 'protocol is the bottom layer: it imports nothing of the engine.')),
  layer(['engine/book/**/*.ts'], [
    ...up(['store', 'chain', 'services', 'http', 'client'], 'book is pure matching: it imports only protocol.'),
    { group: ['node:*', 'fs', 'path', 'crypto'], message: 'book is pure: no I/O, no clock.' },
  ]),
  // The book's tests may use node:test and node:assert; the purity rule is about the core itself.
  layer(['engine/book/**/*.test.ts'], up(['store', 'chain', 'services', 'http', 'client'], 'book tests exercise the core only.')),
  layer(['engine/store/**/*.ts'], up(['book', 'chain', 'services', 'http', 'client'], 'store imports only protocol.')),
  layer(['engine/chain/**/*.ts'], up(['book', 'store', 'services', 'http', 'client'], 'chain imports only protocol.')),
  layer(['engine/services/**/*.ts'], up(['http', 'client'], 'services must not import the HTTP layer or the client library.')),
  // MCP tools are an interface like the routes: they call services (docs/agents.md).
  // (The engine's client library by its relative path: the SDK's own client, '@modelcontextprotocol/sdk/client/…', is allowed.)
  layer(['engine/mcp/**/*.ts'], [
    ...up(['book', 'store', 'chain', 'http'], 'MCP tools call services; they never touch book, store, chain or the HTTP layer.'),
    { group: ['../client/**', '../client'], message: 'MCP tools call services, not the client library.' },
  ]),
  layer(['engine/http/**/*.ts'], up(['book', 'store', 'chain', 'client'], 'http routes call services; they never touch book, store or chain directly.')),
  layer(['engine/client/**/*.ts'], up(['book', 'store', 'chain', 'services', 'http'], 'the client library imports only protocol (it runs in the browser too).')),
  // Tests of services and routes act as users: they may drive the engine through the client library
  // and inspect lower layers; production code in those folders may not.
  layer(['engine/services/**/*.test.ts', 'engine/http/**/*.test.ts'], [
    { group: ['**/renderer/**', '**/electron/**'], message: 'engine tests do not reach into the desktop app.' },
  ]),
  layer(['renderer/**/*.ts', 'renderer/**/*.tsx'], [
    ...up(['book', 'store', 'chain', 'services', 'http'], 'the renderer imports only engine/protocol and engine/client.'),
    { group: ['electron', 'node:*', 'better-sqlite3'], message: 'the renderer runs in a browser.' },
  ]),
  // The renderer's unit tests run under node's test runner: they may use node:* (still not the engine's inner layers).
  layer(['renderer/**/*.test.ts'], up(['book', 'store', 'chain', 'services', 'http'], 'the renderer imports only engine/protocol and engine/client.')),
  // Between service folders: a service gets its peers in its constructor (engine/engine.ts wires them),
  // so it imports another folder's service only as a type (engine/services/noImportCycle.test.ts keeps
  // the graph free of circles). The streams read committed events only: nothing of the order service's
  // write side, only its trade wire format.
  {
    files: ['engine/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [peerServices] }] },
  },
  {
    files: ['engine/services/streams/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            peerServices,
            { group: ['../orders/*', '!../orders/tradeRecord.js'], allowTypeImports: true, message: 'streams publish committed order events: they import only the trade wire format (tradeRecord.js) and types from orders.' },
          ],
        },
      ],
    },
  },
  // Test kits live in engine/testkit/ (files named <area>Kit.ts) and serve tests only: no production
  // module imports one. A separate rule from the layer patterns above, so it adds to them, not replaces.
  {
    files: ['engine/**/*.ts', 'electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts', 'engine/testkit/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportDeclaration[source.value=/(^|\\/)testkit\\//]', message: 'engine/testkit/ holds test kits: only *.test.ts files (and other kits) import them.' },
        { selector: 'ExportAllDeclaration[source.value=/(^|\\/)testkit\\//]', message: 'engine/testkit/ holds test kits: production code does not re-export them.' },
        { selector: 'ExportNamedDeclaration[source.value=/(^|\\/)testkit\\//]', message: 'engine/testkit/ holds test kits: production code does not re-export them.' },
      ],
    },
  },
  layer(['electron/**/*.ts'], [
    { group: ['**/engine/**', '!**/engine/index.js'], message: 'electron imports the engine only through engine/index.ts.' },
  ]),
);
