/** Operator routes of the agents (docs/agents.md), authenticated with `Authorization: Bearer <operatorToken>`. */
import { Type } from '@sinclair/typebox';

export const CreateAgentBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'A label, 1..100 characters; default "agent N"' })),
    limits: Type.Optional(
      Type.Object(
        {
          maxOrderNotional: Type.Optional(Type.String({ description: 'Largest price × size of one order, decimal string of collateral; default "1000"' })),
          maxOpenOrders: Type.Optional(Type.Integer({ description: 'Resting orders before a GTC/GTD is refused, 1..10000; default 50' })),
          maxOrdersPerMinute: Type.Optional(Type.Integer({ description: 'Placements per sliding wall minute, 1..10000; default 60' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
