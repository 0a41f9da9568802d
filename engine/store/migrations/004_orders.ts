import type { Migration } from './index.js';

// Owned by the orders work; filled in by it.
export const m004: Migration = { version: 4, name: 'orders', sql: '' };
