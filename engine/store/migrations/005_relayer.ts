import type { Migration } from './index.js';

// Owned by the relayer work; filled in by it.
export const m005: Migration = { version: 5, name: 'relayer', sql: '' };
