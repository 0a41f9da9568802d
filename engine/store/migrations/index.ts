import { m001 } from './001_core.js';
import { m002 } from './002_auth.js';
import { m003 } from './003_markets.js';
import { m004 } from './004_orders.js';
import { m005 } from './005_relayer.js';
import { m006 } from './006_orders_without_random_keys.js';
import { m008 } from './008_market_fee_rate.js';
import { m010 } from './010_paper_sessions.js';
import { m011 } from './011_fee_schedule.js';
import { m012 } from './012_mirrored_markets.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every schema change, in order. A migration, once released, is never edited: add the next number. */
export const MIGRATIONS: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m008, m010, m011, m012].filter((m) => m.sql.trim() !== '');
