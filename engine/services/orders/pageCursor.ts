import { ApiError } from '../../protocol/errors.js';

/** First page cursor and the end marker of the public clients (trading-api.md §9.1): never "". */
export const FIRST_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

export interface Page<T> {
  limit: number;
  count: number;
  next_cursor: string;
  data: T[];
}

/** Decodes a next_cursor (base64 of a decimal offset). Absent or "" means the first page. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '' || cursor === FIRST_CURSOR) return 0;
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (!/^\d{1,15}$/.test(text) || Buffer.from(text, 'utf8').toString('base64') !== cursor) {
    const hint = cursor === END_CURSOR ? 'LTE= marks the last page: stop paging there' : `start with ${FIRST_CURSOR}`;
    throw new ApiError('invalid_query', `Query parameter 'next_cursor' is not a cursor this service issued (${hint}).`, {
      details: { field: 'next_cursor', in: 'querystring', problem: 'is not a valid cursor' },
    });
  }
  return Number(text);
}

export function encodeCursor(offset: number): string {
  return Buffer.from(String(offset), 'utf8').toString('base64');
}

/** The page envelope; next_cursor is LTE= when this page reaches the end. */
export function pageOf<T>(data: T[], offset: number, limit: number, total: number): Page<T> {
  const next = offset + data.length;
  return { limit, count: data.length, next_cursor: next >= total ? END_CURSOR : encodeCursor(next), data };
}
