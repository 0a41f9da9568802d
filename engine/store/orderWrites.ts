import type { Db } from './database.js';
import { BalanceRepo, type LedgerEntry } from './balanceRepo.js';
import { OrderRepo, type OrderRow, type OrderStatus } from './orderRepo.js';
import { TradeRepo, type TradeRow } from './tradeRepo.js';

/**
 * One change to the trading tables, as data rather than a closure, so it can cross to the writer
 * thread (structured clone keeps bigints). The order service describes every durable effect of a
 * placement, cancel, expiry, credit or redemption with these.
 */
export type OrderWrite =
  | { kind: 'order'; row: OrderRow }
  | { kind: 'fill'; id: string; sizeMatched: bigint; status: OrderStatus; reserved: bigint; at: number }
  | { kind: 'cancel'; id: string; reason: string; at: number }
  | { kind: 'trade'; row: TradeRow }
  | { kind: 'ledger'; entry: LedgerEntry };

/** Applies OrderWrites to one connection's repositories (the writer thread's, or the main one's). */
export class OrderWriteApplier {
  private readonly orders: OrderRepo;
  private readonly trades: TradeRepo;
  private readonly balances: BalanceRepo;

  constructor(db: Db) {
    this.orders = new OrderRepo(db);
    this.trades = new TradeRepo(db);
    this.balances = new BalanceRepo(db);
  }

  apply(writes: readonly OrderWrite[]): void {
    for (const w of writes) {
      switch (w.kind) {
        case 'order':
          this.orders.insert(w.row);
          break;
        case 'fill':
          this.orders.updateFill(w.id, w.sizeMatched, w.status, w.reserved, w.at);
          break;
        case 'cancel':
          this.orders.cancel(w.id, w.reason, w.at);
          break;
        case 'trade':
          this.trades.insert(w.row);
          break;
        case 'ledger':
          this.balances.apply(w.entry);
          break;
      }
    }
  }
}

/** Field order of each kind's record on the wire to the writer thread; `true` marks a bigint field. */
const ORDER_FIELDS: ReadonlyArray<readonly [keyof OrderRow, boolean]> = [
  ['id', false], ['digest', false], ['maker', false], ['signer', false], ['owner', false], ['conditionId', false], ['tokenId', false],
  ['outcomeIndex', false], ['side', false], ['price', true], ['originalSize', true], ['sizeMatched', true], ['makerAmount', true],
  ['takerAmount', true], ['salt', false], ['nonce', false], ['feeRateBps', false], ['signatureType', false], ['signature', false],
  ['orderType', false], ['expiration', false], ['status', false], ['reserved', true], ['cancelReason', false], ['createdAt', false],
  ['updatedAt', false],
];
const TRADE_FIELDS: ReadonlyArray<readonly [keyof TradeRow, boolean]> = [
  ['id', false], ['matchTime', false], ['conditionId', false], ['takerOrderId', false], ['makerOrderId', false], ['takerAssetId', false],
  ['makerAssetId', false], ['takerOutcomeIndex', false], ['makerOutcomeIndex', false], ['takerAddress', false], ['makerAddress', false],
  ['takerOwner', false], ['makerOwner', false], ['takerSide', false], ['makerSide', false], ['price', true], ['makerPrice', true],
  ['size', true], ['kind', false], ['takerFeeRateBps', false], ['makerFeeRateBps', false], ['fee', true], ['makerRebate', true], ['transactionHash', false],
];
const LEDGER_FIELDS: ReadonlyArray<readonly [keyof LedgerEntry, boolean]> = [
  ['time', false], ['address', false], ['asset', false], ['delta', true], ['kind', false], ['reason', false], ['conditionId', false],
  ['outcomeIndex', false], ['side', false], ['price', true], ['tradeId', false], ['orderId', false], ['transactionHash', false],
];

type Wire = Array<string | number | null>;

function pack(out: Wire, record: object, fields: ReadonlyArray<readonly [string, boolean]>): void {
  const r = record as Record<string, unknown>;
  for (const [name, big] of fields) {
    const v = r[name];
    out.push(v === undefined || v === null ? null : big ? (v as bigint).toString() : (v as string | number));
  }
}

function unpack(w: Wire, from: number, fields: ReadonlyArray<readonly [string, boolean]>): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) {
    const [name, big] = fields[i]!;
    const v = w[from + i];
    r[name] = v === null || v === undefined ? null : big ? BigInt(v) : v;
  }
  return r;
}

/**
 * Groups of writes as one JSON string for the writer thread. Why not structured clone of the objects:
 * cloning ~25-field records with bigints cost the main thread more than the SQLite work it offloaded;
 * positional arrays of strings and numbers through the native JSON codec cost a fraction of it.
 */
export function encodeOrderWrites(groups: readonly (readonly OrderWrite[])[]): string {
  const out: Wire[][] = [];
  for (const g of groups) {
    const group: Wire[] = [];
    for (const w of g) {
      const rec: Wire = [w.kind];
      switch (w.kind) {
        case 'order':
          pack(rec, w.row, ORDER_FIELDS);
          break;
        case 'fill':
          rec.push(w.id, w.sizeMatched.toString(), w.status, w.reserved.toString(), w.at);
          break;
        case 'cancel':
          rec.push(w.id, w.reason, w.at);
          break;
        case 'trade':
          pack(rec, w.row, TRADE_FIELDS);
          break;
        case 'ledger':
          pack(rec, w.entry, LEDGER_FIELDS);
          break;
      }
      group.push(rec);
    }
    out.push(group);
  }
  return JSON.stringify(out);
}

/** The inverse of encodeOrderWrites. */
export function decodeOrderWrites(text: string): OrderWrite[][] {
  return (JSON.parse(text) as Wire[][]).map((group) =>
    group.map((w): OrderWrite => {
      switch (w[0]) {
        case 'order':
          return { kind: 'order', row: unpack(w, 1, ORDER_FIELDS) as unknown as OrderRow };
        case 'fill':
          return { kind: 'fill', id: w[1] as string, sizeMatched: BigInt(w[2]!), status: w[3] as OrderStatus, reserved: BigInt(w[4]!), at: w[5] as number };
        case 'cancel':
          return { kind: 'cancel', id: w[1] as string, reason: w[2] as string, at: w[3] as number };
        case 'trade':
          return { kind: 'trade', row: unpack(w, 1, TRADE_FIELDS) as unknown as TradeRow };
        case 'ledger':
          return { kind: 'ledger', entry: unpack(w, 1, LEDGER_FIELDS) as unknown as LedgerEntry };
        default:
          throw new Error(`unknown order write kind ${String(w[0])}`);
      }
    }),
  );
}
