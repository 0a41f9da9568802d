/**
 * The account `public-market` (decisions §10): the other side of every fill against a mirrored market's
 * public depth or a public trade print; it appears by this address in trades, holders and the data
 * service. Defined here, in protocol, so the terminal
 * (which may import only protocol and the client library) and the order service
 * (services/orders/publicDepth.ts re-exports it as PUBLIC_MARKET_ACCOUNT) name the same account.
 */
export const PUBLIC_MARKET_ADDRESS = '0x000000000000007075626c69632d6d61726b6574';
