/**
 * Format checks of relayer requests. Each failure is a 400 that names the field, says what is wrong and
 * what a valid value looks like (interface §4.4, §7: `invalid_field`). Values come out typed: addresses
 * lower-cased, numbers as bigint, hex as given (lower-cased where the chain does not care).
 */
import type { Address, Hex } from 'viem';
import { ApiError } from '../../protocol/errors.js';
import { MAX_UINT256 } from '../../protocol/relayerSigning.js';

export function fieldError(field: string, problem: string, opts: { code?: 'invalid_field' | 'invalid_query' | 'invalid_relayer_payload' } = {}): ApiError {
  const code = opts.code ?? 'invalid_field';
  const what = code === 'invalid_query' ? 'Query parameter' : 'Field';
  return new ApiError(code, `${what} '${field}' ${problem}.`, { details: { field, problem } });
}

type Where = { query?: boolean };

function err(field: string, problem: string, where: Where): ApiError {
  return fieldError(field, problem, { code: where.query ? 'invalid_query' : 'invalid_field' });
}

function present(value: unknown, field: string, where: Where): string {
  if (value === undefined || value === null || value === '') throw err(field, 'is required', where);
  if (typeof value !== 'string') throw err(field, `must be a string, got ${typeof value}`, where);
  return value;
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** A 0x-prefixed 20-byte address in any letter case (EIP-55 casing optional); returned lower-cased. */
export function parseAddress(value: unknown, field: string, where: Where = {}): Address {
  const s = present(value, field, where);
  if (!ADDRESS_RE.test(s)) {
    const hint = /^[0-9a-fA-F]{40}$/.test(s) ? ' (the 0x prefix is missing)' : '';
    throw err(field, `must be a 0x-prefixed 20-byte hex address${hint}, got '${clip(s)}'`, where);
  }
  return s.toLowerCase() as Address;
}

export function parseOptionalAddress(value: unknown, field: string, fallback: Address): Address {
  return value === undefined || value === null || value === '' ? fallback : parseAddress(value, field);
}

const DECIMAL_RE = /^[0-9]+$/;

/** A non-negative integer as a plain decimal string (no sign, exponent, fraction or hex), at most 2^256-1. */
export function parseUint(value: unknown, field: string, where: Where = {}): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  const s = present(value, field, where);
  if (!DECIMAL_RE.test(s)) {
    const why = s.startsWith('-') ? 'must not be negative' : 'must be a decimal integer string such as "0" or "1000000" (no sign, fraction, exponent or hex)';
    throw err(field, `${why}, got '${clip(s)}'`, where);
  }
  if (s.length > 78 || BigInt(s) > MAX_UINT256) throw err(field, 'must be at most 2^256-1', where);
  return BigInt(s);
}

export function parseOptionalUint(value: unknown, field: string, fallback: bigint): bigint {
  return value === undefined || value === null || value === '' ? fallback : parseUint(value, field);
}

/**
 * 0x-prefixed hex of whole bytes. `lowercase` makes it strict (interface §4.4: no uppercase hex in
 * /wallet/proxy call data).
 */
export function parseHexData(value: unknown, field: string, opts: { lowercase?: boolean } = {}): Hex {
  const s = present(value, field, {});
  const re = opts.lowercase ? /^0x(?:[0-9a-f]{2})*$/ : /^0x(?:[0-9a-fA-F]{2})*$/;
  if (!re.test(s)) {
    let why = 'must be 0x-prefixed hex of whole bytes';
    if (opts.lowercase && /^0x(?:[0-9a-fA-F]{2})*$/.test(s)) why = 'must be lowercase hex (uppercase letters are rejected)';
    else if (/^(?:[0-9a-fA-F]{2})+$/.test(s)) why = 'must start with 0x';
    else if (/^0x[0-9a-fA-F]*$/.test(s)) why = 'must have an even number of hex digits (whole bytes)';
    throw err(field, `${why}, got '${clip(s)}'`, {});
  }
  return s as Hex;
}

export function parseOptionalHexData(value: unknown, field: string, opts: { lowercase?: boolean } = {}): Hex {
  return value === undefined || value === null || value === '' ? '0x' : parseHexData(value, field, opts);
}

/** A 65-byte r ‖ s ‖ v signature. */
export function parseSignature(value: unknown, field: string): Hex {
  const s = present(value, field, {});
  if (!/^0x[0-9a-fA-F]{130}$/.test(s)) throw err(field, `must be a 65-byte 0x-prefixed hex signature (132 characters), got '${clip(s)}'`, {});
  return s.toLowerCase() as Hex;
}

export function parseEnum<T extends string>(value: unknown, field: string, allowed: readonly T[], where: Where = {}): T {
  const s = present(value, field, where);
  if (!(allowed as readonly string[]).includes(s)) throw err(field, `must be one of ${allowed.join(', ')}, got '${clip(s)}'`, where);
  return s as T;
}

/** Optional free-text label; null and absent mean "". */
export function parseMetadata(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw err('metadata', 'must be a string or null', {});
  if (value.length > 4096) throw err('metadata', 'must be at most 4096 characters', {});
  return value;
}

export function parseObject(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) throw err(field, 'is required', {});
  if (typeof value !== 'object' || Array.isArray(value)) throw err(field, 'must be an object', {});
  return value as Record<string, unknown>;
}

/** A JSON body that must be an object at all. */
export function requireBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) throw new ApiError('invalid_field', 'The request needs a JSON object body.', { details: { field: 'body', problem: 'is required' } });
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_field', 'The request body must be a JSON object.', { details: { field: 'body', problem: 'must be an object' } });
  }
  return body as Record<string, unknown>;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
