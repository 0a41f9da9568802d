import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { EngineContext } from '../engineContext.js';

/** The local chain's JSON-RPC as wallets and the terminal reach it: the engine's own origin, an allowlist of methods (services/chainProxy). */
export function rpcProxyRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.post(
    '/rpc',
    {
      schema: {
        tags: ['chain'],
        summary:
          "The local chain's JSON-RPC (GET /config's rpcUrl): reads, gas estimates and eth_sendRawTransaction, single or batched; cheat and node-account methods answer a JSON-RPC error",
        body: Type.Unknown({ description: 'A JSON-RPC 2.0 request or a batch (array) of them' }),
      },
    },
    async (req, reply) => {
      const answer = await ctx.chainProxy.forward(req.body);
      // Only notifications: JSON-RPC answers nothing.
      if (answer === undefined) return reply.code(204).send();
      return answer;
    },
  );
}

/** The rpcUrl wallets should use: this listener's /rpc, as the request reached it. */
export function publicRpcUrl(protocol: string, host: string | undefined): string | null {
  return host ? `${protocol}://${host}/rpc` : null;
}
