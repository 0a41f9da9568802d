/**
 * The account `public-market` (decisions §10): the other side of every fill against a mirrored market's
 * public depth or a public trade print; it appears by this address in trades, holders and the data
 * service. The order service defines it as PUBLIC_MARKET_ACCOUNT (services/orders/publicDepth.ts); this
 * copy lets the terminal, which may import only protocol and the client library, name it (the mirror
 * journey proves the two agree: it finds the terminal's "public" marker on a public fill).
 */
export const PUBLIC_MARKET_ADDRESS = '0x000000000000007075626c69632d6d61726b6574';
