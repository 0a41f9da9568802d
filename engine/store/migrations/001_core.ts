import type { Migration } from './index.js';

export const m001: Migration = {
  version: 1,
  name: 'core',
  sql: `
    CREATE TABLE settings (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `,
};
