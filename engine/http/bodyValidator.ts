import AjvCompiler from '@fastify/ajv-compiler';
import type { TSchema } from '@sinclair/typebox';

/** Ajv options of every route schema (fastify's defaults plus these): coercion and defaults as the public clients expect. */
export const AJV_CUSTOM_OPTIONS = { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } as const;

/** One ajv error, as fastify reports it in `error.validation`. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

export type BodyValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/**
 * Compiles a body schema exactly as fastify compiles route schemas (same compiler, same options, same
 * formats), for the lean HTTP path: a body it accepts, coerces or refuses is accepted, coerced or
 * refused the same way as through the fastify route.
 */
export function compileBodyValidator(schema: TSchema): BodyValidator {
  const build = AjvCompiler()({}, { customOptions: AJV_CUSTOM_OPTIONS });
  return build({ schema, method: 'POST', url: '', httpPart: 'body' }) as unknown as BodyValidator;
}

/** The 400 body for a schema violation (the first error), the same for fastify routes and the lean path. */
export function validationErrorBody(first: SchemaError | undefined, where: string): { error: string; message: string; details: { field: string; in: string; problem: string } } {
  const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = first?.keyword === 'required' ? String((first.params as { missingProperty?: string }).missingProperty ?? '') : '';
  const extra = first?.keyword === 'additionalProperties' ? String((first.params as { additionalProperty?: string }).additionalProperty ?? '') : '';
  const field = [path, missing || extra].filter(Boolean).join('.') || where;
  const problem = missing ? 'is required' : extra ? 'is not a known field' : (first?.message ?? 'is invalid');
  const code = where === 'querystring' ? 'invalid_query' : 'invalid_field';
  return {
    error: code,
    message: `${where === 'querystring' ? 'Query parameter' : 'Field'} '${field}' ${problem}.`,
    details: { field, in: where, problem },
  };
}
