import type { Address } from 'viem';
import { ORDER_TYPES, orderDomain, orderTypedMessage, orderVerifyingContract, type SignedOrder } from '../protocol/eip712.js';
import type { UnsignedOrder } from './buildOrder.js';
import { signTypedDataWith, type TypedDataSigner } from './signer.js';

export interface OrderSigningContext {
  chainId: number;
  exchange: Address;
  negRiskExchange: Address;
  /** Neg-risk markets sign against the neg-risk exchange (GET /neg-risk). */
  negRisk: boolean;
}

/** Signs an order with any viem account or wallet client; returns the wire `order` object of POST /order. */
export async function signOrder(signer: TypedDataSigner, order: UnsignedOrder, ctx: OrderSigningContext): Promise<SignedOrder> {
  const verifyingContract = orderVerifyingContract(ctx, ctx.negRisk);
  const signature = await signTypedDataWith(signer, {
    domain: orderDomain({ chainId: ctx.chainId, verifyingContract }),
    types: ORDER_TYPES,
    primaryType: 'Order',
    message: orderTypedMessage(order),
  });
  return { ...order, signature };
}
