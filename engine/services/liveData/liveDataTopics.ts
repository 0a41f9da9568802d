/**
 * The topics and message types of the public real-time data socket (@polymarket/real-time-data-client's
 * README and source) that this exchange serves, and the ones it does not.
 */
export const SERVED_TYPES = {
  activity: ['trades', 'orders_matched'],
  clob_market: ['price_change', 'agg_orderbook', 'last_trade_price', 'tick_size_change', 'market_created', 'market_resolved'],
  clob_user: ['order', 'trade'],
} as const;

export type ServedTopic = keyof typeof SERVED_TYPES;

/** Topics of the public service with no meaning on a local exchange: a subscribe answers why. */
export const UNSERVED_TOPICS: Record<string, string> = {
  comments: 'comments are a feature of the public website (Gamma events and series); this exchange has no comments',
  crypto_prices: 'crypto_prices streams Binance/Chainlink spot prices; this exchange has no price feeds',
  crypto_prices_chainlink: 'crypto_prices streams Binance/Chainlink spot prices; this exchange has no price feeds',
  rfq: 'rfq (request for quote) is not offered by this exchange',
};

/** The market-channel event behind each clob_market type (the market channel's `book` is agg_orderbook). */
export const MARKET_EVENT_TYPE: Record<string, string> = {
  book: 'agg_orderbook',
  price_change: 'price_change',
  last_trade_price: 'last_trade_price',
  tick_size_change: 'tick_size_change',
};

export function isServedTopic(topic: string): topic is ServedTopic {
  return Object.prototype.hasOwnProperty.call(SERVED_TYPES, topic);
}
