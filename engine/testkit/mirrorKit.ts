import { NO_FEE } from '../protocol/feeSchedule.js';
import type { PublicMarketIdentity } from '../services/mirror/mirrorTypes.js';

/**
 * A public market's identity for tests that need one without an upstream: a plain binary market on a
 * 0.01 tick, 5 shares minimum, no fee, open; each test names what makes its market its own.
 */
export function publicIdentity(own: Pick<PublicMarketIdentity, 'conditionId' | 'question' | 'tokenIds'> & Partial<PublicMarketIdentity>): PublicMarketIdentity {
  return {
    questionId: '0x' + '00'.repeat(32),
    description: '',
    slug: own.question.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
    outcomes: ['Yes', 'No'],
    tickSize: 10_000,
    minOrderSize: 5_000_000,
    negRisk: false,
    negRiskMarketId: '',
    endDate: null,
    feeSchedule: NO_FEE,
    image: '',
    closed: false,
    acceptingOrders: true,
    winner: null,
    ...own,
  };
}
