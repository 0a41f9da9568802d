import { useUi } from '../state/uiStore.js';

/** The star that adds a market to the favourites (the watchlist), or takes it out. */
export function FavouriteToggle({ conditionId, question }: { conditionId: string; question: string }) {
  const on = useUi((s) => s.favourites.includes(conditionId));
  const toggle = useUi((s) => s.toggleFavourite);
  return (
    <button
      className={`ghost star${on ? ' on' : ''}`}
      aria-pressed={on}
      aria-label={on ? `Remove “${question}” from favourites` : `Add “${question}” to favourites`}
      title={on ? 'Remove from favourites' : 'Add to favourites (watchlist)'}
      data-testid="favourite-toggle"
      onClick={() => toggle(conditionId)}
    >
      {on ? '★' : '☆'}
    </button>
  );
}
