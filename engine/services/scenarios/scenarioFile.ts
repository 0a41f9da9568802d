import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { ApiError } from '../../protocol/errors.js';
import { SCENARIO_ACTIONS, ScenarioHeader, type Scenario, type ScenarioActionName } from '../../protocol/schemas/scenario.js';

/** The largest scenario accepted (1,000 events fit in well under it); a larger one is refused before parsing. */
export const MAX_SCENARIO_BYTES = 1_048_576;

function tooLarge(source: string, bytes: number): ApiError {
  return new ApiError('invalid_field', `${source} is ${bytes} bytes; a scenario may be at most ${MAX_SCENARIO_BYTES} bytes (1 MiB). Split it or shorten it.`, { details: { field: 'scenario' } });
}

/** Reads a scenario file, refusing one over the size limit from its size alone (nothing of it is parsed). */
export function readScenarioFile(path: string): Scenario {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_SCENARIO_BYTES) throw tooLarge(path, size);
    const buf = Buffer.alloc(size);
    let read = 0;
    while (read < size) read += readSync(fd, buf, read, size - read, read);
    return parseScenarioText(buf.toString('utf8'), path);
  } finally {
    closeSync(fd);
  }
}

/** Parses a scenario file's text (YAML, which also reads JSON). A syntax error is a 400 naming the line. */
export function parseScenarioText(text: string, source: string): Scenario {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SCENARIO_BYTES) throw tooLarge(source, bytes);
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new ApiError('invalid_field', `${source} is not valid YAML or JSON: ${(e as Error).message}`, { details: { field: 'scenario' } });
  }
  return checkScenario(data);
}

/**
 * Checks a scenario against the schema (protocol/schemas/scenario.ts): the header first, then every
 * event against the schema of the one action it names, so a 400 names the exact field, e.g.
 * `events.3.whale.limit`.
 */
export function checkScenario(data: unknown): Scenario {
  firstError(ScenarioHeader, data, '');
  const s = data as Scenario;
  s.events.forEach((e, i) => {
    const actions = Object.keys(e).filter((k) => k !== 'at');
    const where = `events.${i}`;
    if (actions.length !== 1 || !(actions[0]! in SCENARIO_ACTIONS)) {
      throw new ApiError('invalid_field', `Field '${where}' must name exactly one action besides 'at' (one of ${Object.keys(SCENARIO_ACTIONS).join(', ')}); got ${actions.join(', ') || 'none'}.`, {
        details: { field: where, in: 'body', problem: 'must name exactly one action' },
      });
    }
    const name = actions[0] as ScenarioActionName;
    firstError(SCENARIO_ACTIONS[name], (e as unknown as Record<string, unknown>)[name], `${where}.${name}`);
    if (e.at > s.durationSeconds) {
      throw new ApiError('invalid_field', `Field '${where}.at' (${e.at}) is after the scenario's end (durationSeconds ${s.durationSeconds}).`, { details: { field: `${where}.at`, in: 'body', problem: 'is after the end' } });
    }
  });
  return s;
}

function firstError(schema: TSchema, value: unknown, prefix: string): void {
  const err = Value.Errors(schema, value).First();
  if (!err) return;
  const path = err.path.replace(/^\//, '').replace(/\//g, '.');
  const field = [prefix, path].filter(Boolean).join('.') || 'scenario';
  throw new ApiError('invalid_field', `Field '${field}' ${err.message.toLowerCase()}${err.value === undefined ? '' : ` (got ${JSON.stringify(err.value)?.slice(0, 80)})`}.`, {
    details: { field, in: 'body', problem: err.message },
  });
}
