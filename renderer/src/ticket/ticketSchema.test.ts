import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TICKET_DEFAULTS, ticketIssues, type TicketRules, type TicketValues } from './ticketSchema.js';

const limitRules = (tick = '0.01', min = '5'): TicketRules => ({ tickSize: tick, minOrderSize: min, effective: (v) => ({ price: v.price, size: v.size }) });
const t = (o: Partial<TicketValues>): TicketValues => ({ ...TICKET_DEFAULTS, ...o });

test('a limit ticket on the tick and above the minimum has no issue', () => {
  assert.deepEqual(ticketIssues(limitRules(), t({ price: '0.55', size: '10' })), {});
});

test('the market’s tick and minimum size decide the price and size issues', () => {
  assert.deepEqual(ticketIssues(limitRules('0.1', '5'), t({ price: '0.55', size: '4' })), {
    price: 'The price must be a multiple of the tick 0.1.',
    size: 'The minimum size of this market is 5 shares.',
  });
  assert.deepEqual(ticketIssues(limitRules('0.001', '1'), t({ price: '0.555', size: '1' })), {});
  assert.equal(ticketIssues(limitRules(), t({ price: '0.99', size: '5' })).price, undefined);
  assert.equal(ticketIssues(limitRules(), t({ price: '1', size: '5' })).price, 'The price must lie between 0.01 and 0.99.');
  assert.equal(ticketIssues(limitRules(), t({ price: '0.5', size: '5.555' })).size, 'Sizes have at most 2 decimals.');
});

test('a GTD needs a lifetime of at least a minute (signed with the 60 s buffer on top)', () => {
  const ok = t({ price: '0.5', size: '5', orderType: 'GTD' });
  assert.deepEqual(ticketIssues(limitRules(), { ...ok, gtdMinutes: '1' }), {});
  assert.equal(ticketIssues(limitRules(), { ...ok, gtdMinutes: '0.5' }).gtdMinutes, 'Set a GTD lifetime of at least a minute.');
  assert.equal(ticketIssues(limitRules(), { ...ok, gtdMinutes: '' }).gtdMinutes, 'Set a GTD lifetime of at least a minute.');
  assert.equal(ticketIssues(limitRules(), { ...ok, orderType: 'GTC', gtdMinutes: '' }).gtdMinutes, undefined, 'only a GTD has a lifetime');
});

test('a market buy is checked on its dollar amount and on what the book gives for it', () => {
  const book = (price: string, size: string): TicketRules => ({ tickSize: '0.01', minOrderSize: '5', effective: () => ({ price, size }) });
  const buy = t({ mode: 'market', orderType: 'FAK', amount: '3' });
  assert.deepEqual(ticketIssues(book('0.6', '5'), buy), {});
  assert.equal(ticketIssues(book('0.6', '5'), { ...buy, amount: '' }).amount, 'Enter the dollars to spend.');
  assert.equal(ticketIssues(book('0.6', '5'), { ...buy, amount: '-1' }).amount, 'The amount is a positive number of dollars.');
  assert.equal(ticketIssues(book('0.6', '2'), buy).amount, 'The minimum size of this market is 5 shares.', 'too few dollars for the minimum');
  assert.equal(ticketIssues({ ...book('0', '0'), effective: () => undefined }, buy).amount, 'Nothing on the book to take.');
  assert.equal(ticketIssues(book('0.6', '5'), { ...buy, orderType: 'GTC' }).orderType, 'A market order is FOK or FAK.');
});
