/** The isomorphic client library (Node and browser): headers, amounts, signing, every route. */
export { ClientHttpError, OrderBuildError } from './clientHttpError.js';
export { createL1Headers, signClobAuth, type L1Headers } from './createL1Headers.js';
export { createL2Headers, type ApiCredentials, type L2Headers, type L2RequestArgs } from './createL2Headers.js';
export {
  ROUNDING_CONFIG,
  calculateMarketPrice,
  getMarketOrderRawAmounts,
  getOrderRawAmounts,
  toTickSize,
  type RawAmounts,
  type RoundConfig,
  type TickSize,
} from './orderAmounts.js';
export { decimalPlaces, fit, formatRational, roundDown, roundNormal, roundUp, toRational, type Rational } from './exactDecimal.js';
export { buildMarketOrder, buildOrder, generateSalt, type LimitOrderParams, type MarketOrderParams, type UnsignedOrder } from './buildOrder.js';
export { signOrder, type OrderSigningContext } from './signOrder.js';
export { signerAddress, type TypedDataSigner } from './signer.js';
export { END_CURSOR, ExchangeClient, INITIAL_CURSOR, createExchangeClient, type ExchangeClientOptions } from './exchangeClient.js';
export type * from './responseTypes.js';
export * from '../protocol/eip712.js';
export { buildL2Signature } from '../protocol/hmac.js';
export { LocalBook, sha1Hex } from './localBook.js';
export { MarketStream, type MarketStreamOptions } from './marketStream.js';
export { UserStream, type UserStreamOptions } from './userStream.js';
export { StreamSocket, type StreamState, type StreamStatus, type StreamSocketOptions, type WebSocketConstructor, type WebSocketLike } from './streamSocket.js';
export type * from '../protocol/streamEvents.js';
export { MirrorClient, type MirrorRow, type MirrorStatus, type PublicCatalogueEntry, type ReplayReport, type ReplayStarted, type TapeList, type TapeRow, type UpstreamState } from './mirrorClient.js';
