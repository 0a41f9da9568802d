import type { FastifyRequest } from 'fastify';

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: readonly string[];
}

/**
 * preValidation for the polymarket profile (decisions §6): an empty string sent for an optional field of
 * `schema` is that field absent, as the public service reads it. py-clob-client sends both filters of
 * `DELETE /cancel-market-orders` and leaves the unused one `""`. Required fields keep their `""`, so the
 * schema still refuses it naming the field.
 */
export function emptyStringIsAbsent(schema: ObjectSchema, where: 'body' | 'query' = 'body'): (req: FastifyRequest) => Promise<void> {
  const optional = Object.keys(schema.properties ?? {}).filter((k) => !(schema.required ?? []).includes(k));
  return async (req) => {
    const value = req[where] as Record<string, unknown> | undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const k of optional) if (value[k] === '') delete value[k];
  };
}
