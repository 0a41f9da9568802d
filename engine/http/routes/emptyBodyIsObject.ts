import type { FastifyRequest } from 'fastify';

/**
 * preValidation of routes whose object body is optional: no body at all (or a blank one, which the app's
 * parser reads as none) is treated as `{}`. A JSON `null` is a body of the wrong type and stays one, so the
 * schema refuses it with a 400 naming the body, like any other non-object.
 */
export async function emptyBodyIsObject(req: FastifyRequest): Promise<void> {
  if (req.body === undefined) req.body = {};
}
