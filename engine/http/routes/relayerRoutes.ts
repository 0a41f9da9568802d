import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Address } from 'viem';
import {
  ApproveBody,
  DeployedResponse,
  NonceResponse,
  RelayPayloadResponse,
  SubmitBody,
  SubmitResponse,
  TransactionQuery,
  TransactionRecord,
  TxResultResponse,
  WalletProxyBody,
  WalletProxyResponse,
  WalletQuery,
  WalletSafeBody,
  WalletSafeResponse,
} from '../../protocol/schemas/relayer.js';
import type { EngineContext } from '../engineContext.js';
import { requireRelayerAuth } from '../relayerAuthGuard.js';
import { Type } from '@sinclair/typebox';

const tags = ['relayer'];

/**
 * The relayer service under /relayer (decisions §0, §4): the writes and GET /transactions need L2,
 * signed over the path relative to /relayer (e.g. `/submit`) and checked in preValidation, before the
 * body schema, so an unauthenticated caller learns nothing about its body. The reads are public, as the
 * public client expects. Bodies are JSON whatever the Content-Type (the app's one parser).
 */
export function relayerRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const l2 = requireRelayerAuth(ctx, { basePath: '/relayer' });
  const who = (req: FastifyRequest): Address => req.identity.address.toLowerCase() as Address;

  app.post('/submit', {
    preValidation: l2,
    schema: {
      tags,
      summary: 'Queue a signed SAFE, SAFE-CREATE or PROXY transaction (answers STATE_NEW before mining)',
      body: SubmitBody,
      response: { 200: SubmitResponse },
    },
    handler: (req) => ctx.relayer.submit(who(req), req.body),
  });

  app.get('/nonce', {
    schema: { tags, summary: "Safe nonce of the owner's Safe (SAFE) or relay-hub nonce (PROXY)", querystring: WalletQuery, response: { 200: NonceResponse } },
    handler: (req) => ctx.relayer.nonce(req.query as Record<string, unknown>),
  });

  app.get('/relay-payload', {
    schema: {
      tags,
      summary: 'Backend values of the GSN rlx: hash. `address` is the relay EOA: never send funds to it.',
      querystring: WalletQuery,
      response: { 200: RelayPayloadResponse },
    },
    handler: (req) => ctx.relayer.relayPayload(req.query as Record<string, unknown>),
  });

  app.get('/transaction', {
    schema: { tags, summary: 'One transaction as a one-element array ([] for an unknown id)', querystring: TransactionQuery, response: { 200: Type.Array(TransactionRecord) } },
    handler: async (req) => ctx.relayer.transaction(req.query as Record<string, unknown>),
  });

  app.get('/transactions', {
    preValidation: l2,
    schema: { tags, summary: "The caller's transactions, newest first", response: { 200: Type.Array(TransactionRecord) } },
    handler: async (req) => ctx.relayer.transactions(who(req)),
  });

  app.get('/deployed', {
    schema: { tags, summary: 'Whether a wallet is deployed (type given: address is the owner)', querystring: WalletQuery, response: { 200: DeployedResponse } },
    handler: (req) => ctx.relayer.deployed(req.query as Record<string, unknown>),
  });

  app.post('/operations/approve', {
    preValidation: l2,
    schema: { tags, summary: 'ERC-20 approve sent by the managed operator (one at a time)', body: ApproveBody, response: { 200: TxResultResponse } },
    handler: (req) => ctx.relayer.approve(who(req), req.body),
  });

  app.post('/wallet/proxy', {
    preValidation: l2,
    schema: { tags, summary: "Run calls from the owner's GSN proxy wallet (deployed on first use)", body: WalletProxyBody, response: { 200: WalletProxyResponse } },
    handler: (req) => ctx.relayer.walletProxy(who(req), req.body),
  });

  app.post('/wallet/safe', {
    preValidation: l2,
    schema: { tags, summary: "Deploy the owner's Safe from a CreateProxy signature", body: WalletSafeBody, response: { 200: WalletSafeResponse } },
    handler: (req) => ctx.relayer.walletSafe(who(req), req.body),
  });
}
