import type { Migration } from './index.js';

// Owned by the auth work; filled in by it.
export const m002: Migration = { version: 2, name: 'auth', sql: '' };
