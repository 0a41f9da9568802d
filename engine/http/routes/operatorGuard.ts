import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../engineContext.js';

/** The onRequest hook of operator routes: `Authorization: Bearer <operatorToken>`, compared in constant time. */
export function operatorGuard(ctx: EngineContext): (req: FastifyRequest) => Promise<void> {
  return async (req: FastifyRequest): Promise<void> => {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const expected = Buffer.from(ctx.secrets.operatorToken);
    const given = Buffer.from(m?.[1] ?? '');
    if (!m || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError(
        'operator_unauthorized',
        m
          ? 'The operator token is wrong. Use the operatorToken printed in the ready line (also in secrets.json of the data directory).'
          : 'Operator routes need the header Authorization: Bearer <operatorToken> (printed in the ready line).',
      );
    }
  };
}
