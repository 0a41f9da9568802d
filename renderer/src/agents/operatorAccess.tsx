import { useQuery } from '@tanstack/react-query';
import { AgentsClient } from '../../../engine/client/agentsClient.js';
import { Empty } from '../components/Panel.js';
import { loadOperatorToken } from '../desktop.js';
import { SERVICES } from '../env.js';
import { useUi } from '../state/uiStore.js';

/** The operator routes' client, once the operator token is known (the Admin tab takes a pasted one). */
export function useAgentsClient(): { client: AgentsClient | undefined; loading: boolean } {
  // The same query as the Admin tab's: a token pasted there unlocks these views at once.
  const token = useQuery({ queryKey: ['operator-token'], queryFn: async () => (await loadOperatorToken()) ?? null, staleTime: Infinity });
  return { client: token.data ? new AgentsClient(SERVICES.trading, token.data) : undefined, loading: token.isPending };
}

/** What an operator view shows without the token: where to give it. */
export function NeedsOperatorToken(props: { what: string; testId: string }) {
  const setTab = useUi((s) => s.setBottomTab);
  return (
    <div className="tab-body" data-testid={props.testId}>
      <Empty>
        {props.what} needs the operator token (the <code>operatorToken</code> of the engine's ready line).{' '}
        <button className="link" onClick={() => setTab('admin')} data-testid={`${props.testId}-to-admin`}>
          Give it in the Admin tab
        </button>
      </Empty>
    </div>
  );
}
