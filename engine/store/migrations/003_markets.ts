import type { Migration } from './index.js';

// Owned by the markets work; filled in by it.
export const m003: Migration = { version: 3, name: 'markets', sql: '' };
