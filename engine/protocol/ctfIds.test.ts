import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeAbiParameters, keccak256, type Hex } from 'viem';
import {
  binaryTokenIds,
  collectionIdOf,
  conditionIdOf,
  indexSetOf,
  negRiskConditionIdOf,
  negRiskMarketIdOf,
  negRiskPositionIdOf,
  negRiskQuestionIdOf,
  positionIdOf,
  questionIdOf,
} from './ctfIds.js';

// go-ctf-utils known-answer vector (data-api.md §7).
const ORACLE = '0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74';
const QUESTION = '0xa23eaa48f1d77a8ed0660f8198198b08ad33cf059ef05d5d87f254325c62b18a';
const CONDITION = '0x41771a29f1fa3b5ac743ddcf224017f802bd69152c1a65230ec666abfc22b708';
const USDCE = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const YES = '87848146419241057657677458104196204655830537958664996373577118668208015365957';
const NO = '11831001752042525186810643219442170205387399550590230096735412415464402686073';

test('conditionId is keccak256(oracle ‖ questionId ‖ uint256(2)) as in go-ctf-utils', () => {
  assert.equal(conditionIdOf(ORACLE, QUESTION), CONDITION);
});

test('collectionIds follow the alt_bn128 getCollectionId for both index sets', () => {
  assert.equal(collectionIdOf(CONDITION, indexSetOf(0)), '0x63ecd1f555d88721e1d063640ec7719a904925b55bf9a8c3e9d1dddfa86b1a6b');
  assert.equal(collectionIdOf(CONDITION, indexSetOf(1)), '0x610f95f837bfcb4a52eedebd551bbdd7f273edeb47ad140cfba8287e6fed1929');
});

test('token ids are the Yes and No position ids of the go-ctf-utils vector', () => {
  assert.deepEqual(binaryTokenIds(USDCE, CONDITION), [YES, NO]);
  assert.equal(positionIdOf(USDCE, collectionIdOf(CONDITION, 1n)).toString(), YES);
});

test('a non-zero parent collection adds its curve point (order of addition does not matter)', () => {
  const a = collectionIdOf(CONDITION, 1n);
  const other = conditionIdOf(ORACLE, questionIdOf('another question'));
  const b = collectionIdOf(other, 2n);
  const ab = collectionIdOf(other, 2n, a);
  const ba = collectionIdOf(CONDITION, 1n, b);
  assert.equal(ab, ba);
  assert.notEqual(ab, a);
  assert.match(ab, /^0x[0-9a-f]{64}$/);
});

test('questionIdOf hashes the ancillary data', () => {
  assert.equal(questionIdOf('q'), keccak256('0x71'));
});

test('neg-risk ids: marketId zeroes the low byte, questionId adds the index, the adapter is the oracle', () => {
  const adapter: Hex = '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296';
  const data: Hex = '0x1234';
  const marketId = negRiskMarketIdOf(adapter, data);
  const full = BigInt(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [adapter, data])));
  assert.equal(BigInt(marketId), full - (full & 0xffn));
  assert.equal(BigInt(marketId) & 0xffn, 0n);
  const q3 = negRiskQuestionIdOf(marketId, 3);
  assert.equal(BigInt(q3), BigInt(marketId) + 3n);
  const cond = negRiskConditionIdOf(adapter, q3);
  assert.equal(cond, conditionIdOf(adapter, q3, 2));
  const wcol: Hex = '0x3A3BD7bb9528E159577F7C2e685CC81A765002E2';
  assert.equal(negRiskPositionIdOf(wcol, cond, true), positionIdOf(wcol, collectionIdOf(cond, 1n)));
  assert.equal(negRiskPositionIdOf(wcol, cond, false), positionIdOf(wcol, collectionIdOf(cond, 2n)));
  assert.throws(() => negRiskQuestionIdOf(marketId, 256));
});
