import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditSummary, compactJson } from './auditText.js';

describe("the audit log's one-line results", () => {
  it('shows a refusal by its text, a lone list by its count, an order by its status, and cuts long JSON', () => {
    assert.equal(auditSummary({ ok: false, result: { error: 'limit_exceeded: notional 2000 over 1000' } }), 'limit_exceeded: notional 2000 over 1000');
    assert.equal(auditSummary({ ok: true, result: { markets: [1, 2, 3] } }), '3 markets');
    assert.equal(auditSummary({ ok: true, result: { orderID: '0xab', status: 'matched', extra: 1 } }), 'status matched · orderID 0xab');
    assert.equal(auditSummary({ ok: true, result: 'plain text' }), 'plain text');
    assert.equal(compactJson({ a: 'x'.repeat(50) }, 20), '{"a":"xxxxxxxxxxxxx…');
    assert.equal(compactJson(undefined, 10), 'null');
  });
});
