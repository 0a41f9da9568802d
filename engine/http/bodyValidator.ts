import AjvCompiler from '@fastify/ajv-compiler';
import type { TSchema } from '@sinclair/typebox';

/**
 * Ajv options of query-string and path-parameter schemas: those parts are text by nature, so a
 * `limit=10` is coerced to the integer its schema names.
 */
export const AJV_CUSTOM_OPTIONS = { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } as const;

/**
 * Ajv options of request bodies: JSON has types, and they are the contract (every order amount is a
 * string; a float where a decimal string belongs is lost precision on money), so nothing is coerced:
 * a number where a string is required, a one-element array, an object, null or a boolean is a 400
 * naming the field. Where a public client really sends another JSON type (the TS client's numeric
 * `salt`), the schema names that type explicitly.
 */
export const AJV_BODY_OPTIONS = { ...AJV_CUSTOM_OPTIONS, coerceTypes: false } as const;

type RouteSchemaCompiler = (route: { schema: unknown; method: string; url: string; httpPart?: string }) => (data: unknown) => unknown;

/** fastify's validator compiler: bodies strict (AJV_BODY_OPTIONS), every other part with AJV_CUSTOM_OPTIONS. */
export function routeValidatorCompiler(): RouteSchemaCompiler {
  const strict = AjvCompiler()({}, { customOptions: AJV_BODY_OPTIONS }) as unknown as RouteSchemaCompiler;
  const textual = AjvCompiler()({}, { customOptions: AJV_CUSTOM_OPTIONS }) as unknown as RouteSchemaCompiler;
  return (route) => (route.httpPart === 'body' ? strict : textual)(route);
}

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
 * formats), outside a route: a body it accepts or refuses is accepted or refused the same way by the
 * route (the every-field test checks its base bodies with it).
 */
export function compileBodyValidator(schema: TSchema): BodyValidator {
  const build = AjvCompiler()({}, { customOptions: AJV_BODY_OPTIONS });
  return build({ schema, method: 'POST', url: '', httpPart: 'body' }) as unknown as BodyValidator;
}

/** The 400 body for a schema violation (the first error), for every route. */
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
