/**
 * Conditional Tokens ids (data-api.md §7): question, condition, collection and position (token) ids,
 * computed exactly as the deployed CTF contract does, so the ids the exchange shows are the ERC-1155 ids
 * the chain holds. Pure bigint math; keccak and packing from viem.
 */
import { encodeAbiParameters, encodePacked, keccak256, toHex, type Hex } from 'viem';

/** alt_bn128 field prime; the curve is y² = x³ + 3. */
export const BN128_P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const CURVE_B = 3n;
const ZERO32 = `0x${'0'.repeat(64)}` as Hex;

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

// P ≡ 3 (mod 4), so a square root of a residue is yy^((P+1)/4): the same root the contract's sqrt finds
// up to sign, and the sign is fixed by the parity rule below.
function sqrtModP(yy: bigint): bigint {
  return modPow(yy, (BN128_P + 1n) / 4n, BN128_P);
}

function curveY2(x: bigint): bigint {
  return (((x * x) % BN128_P) * x + CURVE_B) % BN128_P;
}

function modInv(a: bigint): bigint {
  return modPow(((a % BN128_P) + BN128_P) % BN128_P, BN128_P - 2n, BN128_P);
}

/** Affine point addition on alt_bn128 (what the ecAdd precompile 0x06 does). */
function ecAdd(x1: bigint, y1: bigint, x2: bigint, y2: bigint): [bigint, bigint] {
  const P = BN128_P;
  let lambda: bigint;
  if (x1 === x2) {
    if ((y1 + y2) % P === 0n) throw new Error('collection ids add up to the point at infinity');
    lambda = (3n * x1 * x1 * modInv(2n * y1)) % P;
  } else {
    lambda = (((y2 - y1 + P) % P) * modInv((x2 - x1 + P) % P)) % P;
  }
  const x3 = (((lambda * lambda - x1 - x2) % P) + 2n * P) % P;
  const y3 = (((lambda * (x1 - x3)) % P) - y1 + 2n * P) % P;
  return [x3, y3];
}

function bytes32(n: bigint): Hex {
  return toHex(n, { size: 32 });
}

/** questionId for a market this exchange creates: keccak256 of its ancillary data (as the UMA adapter does). */
export function questionIdOf(ancillaryData: string): Hex {
  return keccak256(toHex(ancillaryData));
}

/** conditionId = keccak256(oracle ‖ questionId ‖ uint256(outcomeSlotCount)). */
export function conditionIdOf(oracle: Hex, questionId: Hex, outcomeSlotCount = 2): Hex {
  return keccak256(encodePacked(['address', 'bytes32', 'uint256'], [oracle, questionId, BigInt(outcomeSlotCount)]));
}

/** indexSet of outcome i in a binary condition: 1 << i. */
export function indexSetOf(outcomeIndex: number): bigint {
  return 1n << BigInt(outcomeIndex);
}

/**
 * The CTF's elliptic-curve getCollectionId (CTHelpers.sol). A plain keccak(conditionId ‖ indexSet) gives
 * ids the chain does not know, hence the curve.
 */
export function collectionIdOf(conditionId: Hex, indexSet: bigint, parentCollectionId: Hex = ZERO32): Hex {
  const P = BN128_P;
  let x1 = BigInt(keccak256(encodePacked(['bytes32', 'uint256'], [conditionId, indexSet])));
  const odd = x1 >> 255n !== 0n;
  let yy: bigint;
  let y1: bigint;
  do {
    x1 = (x1 + 1n) % P;
    yy = curveY2(x1);
    y1 = sqrtModP(yy);
  } while ((y1 * y1) % P !== yy);
  if ((odd && y1 % 2n === 0n) || (!odd && y1 % 2n === 1n)) y1 = P - y1;

  let x2 = BigInt(parentCollectionId);
  if (x2 !== 0n) {
    const parentOdd = x2 >> 254n !== 0n;
    x2 &= (1n << 254n) - 1n;
    const yy2 = curveY2(x2);
    let y2 = sqrtModP(yy2);
    if ((parentOdd && y2 % 2n === 0n) || (!parentOdd && y2 % 2n === 1n)) y2 = P - y2;
    if ((y2 * y2) % P !== yy2) throw new Error('invalid parent collection id');
    [x1, y1] = ecAdd(x1, y1, x2, y2);
  }
  if (y1 % 2n === 1n) x1 ^= 1n << 254n;
  return bytes32(x1);
}

/** positionId = uint256(keccak256(collateral ‖ collectionId)): the ERC-1155 token id. */
export function positionIdOf(collateral: Hex, collectionId: Hex): bigint {
  return BigInt(keccak256(encodePacked(['address', 'bytes32'], [collateral, collectionId])));
}

/** Both token ids of a binary condition, by outcome index, as decimal strings (the wire form). */
export function binaryTokenIds(collateral: Hex, conditionId: Hex): [string, string] {
  return [
    positionIdOf(collateral, collectionIdOf(conditionId, indexSetOf(0))).toString(),
    positionIdOf(collateral, collectionIdOf(conditionId, indexSetOf(1))).toString(),
  ];
}

// ── neg-risk (Polymarket neg-risk-ctf-adapter) ──────────────────────────────────────────────────────

/** marketId = keccak256(abi.encode(oracle, data)) with the low byte zeroed (room for 256 questions). */
export function negRiskMarketIdOf(oracle: Hex, data: Hex): Hex {
  const h = BigInt(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [oracle, data])));
  return bytes32(h & ~0xffn);
}

/** questionId of question `questionIndex` of a neg-risk market: marketId + index. */
export function negRiskQuestionIdOf(marketId: Hex, questionIndex: number): Hex {
  if (!Number.isInteger(questionIndex) || questionIndex < 0 || questionIndex > 255) throw new Error('questionIndex must be 0..255');
  return bytes32(BigInt(marketId) + BigInt(questionIndex));
}

/** conditionId of a neg-risk question: the adapter is the oracle. */
export function negRiskConditionIdOf(adapter: Hex, questionId: Hex): Hex {
  return conditionIdOf(adapter, questionId, 2);
}

/** Token id of a neg-risk position: collateral is the adapter's WrappedCollateral; yes = outcome 0 (index set 1). */
export function negRiskPositionIdOf(wrappedCollateral: Hex, conditionId: Hex, yes: boolean): bigint {
  return positionIdOf(wrappedCollateral, collectionIdOf(conditionId, yes ? 1n : 2n));
}
