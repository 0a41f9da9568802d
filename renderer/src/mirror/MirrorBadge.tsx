import { useMarkets } from '../api/hooks.js';
import type { Market } from '../api/types.js';
import { mirrorBadge } from './mirrorBadge.js';
import { useNow } from './useNow.js';

/**
 * The badge of a mirrored (or replayed) market: MIRRORED / REPLAY, the upstream state and the age of
 * the last upstream event, counting live from the market list's last answer. Nothing for a local market.
 */
export function MirrorBadge(props: { market: Market; compact?: boolean }) {
  const { dataUpdatedAt } = useMarkets();
  const now = useNow();
  const mirror = props.market.mirror;
  if (!mirror) return null;
  const b = mirrorBadge(mirror, dataUpdatedAt ? now - dataUpdatedAt : 0);
  return (
    <span className={`badge mirror ${b.tone}`} title={b.title} aria-label={b.title} data-testid="mirror-badge" data-label={b.label} data-state={b.state} data-source={mirror.source}>
      {b.label}
      {props.compact ? null : <span className="mirror-detail"> · {b.detail}</span>}
    </span>
  );
}

/** Under the market header: why orders may be refused on a stale or closed mirror (nothing while live). */
export function MirrorNotice(props: { market: Market }) {
  const { dataUpdatedAt } = useMarkets();
  const now = useNow();
  const mirror = props.market.mirror;
  const notice = mirror ? mirrorBadge(mirror, dataUpdatedAt ? now - dataUpdatedAt : 0).notice : null;
  if (!notice) return null;
  return (
    <div className={`mirror-notice ${mirror!.upstreamState}`} role="status" data-testid="mirror-notice" data-state={mirror!.upstreamState}>
      {notice}
    </div>
  );
}
