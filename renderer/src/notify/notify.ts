import { toast } from 'sonner';
import { fixedDecimals } from '../format.js';
import { translateRejection } from './translateRejection.js';

/** The terminal's toasts, one function per event a trader cares about (issue 14, scope 6). */
export const notify = {
  placed: (what: string) => toast.success('Order placed', { description: what, id: undefined }),
  filled: (what: string) => toast.success('Order filled', { description: what }),
  partiallyFilled: (what: string, matched: string, of: string) => toast('Order partially filled', { description: `${what} (${fixedDecimals(matched, 2)} of ${fixedDecimals(of, 2)} shares filled)` }),
  mirrored: (question: string) => toast.success('Mirroring a public market', { description: `${question}: its public depth is on the book; trade it on paper like any market.` }),
  replaying: (tape: string) => toast.success('Replay started', { description: `The tape ${tape} drives its market's public depth.` }),
  cancelled: (what: string) => toast('Order cancelled', { description: what }),
  expired: (what: string) => toast.warning('Order expired', { description: what }),
  resolved: (what: string) => toast.warning('Market resolved', { description: `${what} was cancelled because the market resolved. Redeem winning positions in Positions.` }),
  /** A market the trader holds resolved: who won, and what each of their positions did. */
  holdingResolved: (winner: string, text: string) => toast.warning(`Resolved: ${winner} won`, { description: text, duration: 10_000 }),
  rejected: (code: string | null | undefined, message: string | null | undefined) => {
    const t = translateRejection(code, message);
    // An error stays until the trader dismisses it (issue 23, item 5).
    return toast.error(t.title, { description: t.action, className: 'toast-rejected', duration: Infinity });
  },
};
