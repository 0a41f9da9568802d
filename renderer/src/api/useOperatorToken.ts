import { useQuery } from '@tanstack/react-query';
import { loadOperatorToken } from '../desktop.js';

/** The operator token (desktop app, npm start's bootstrap, or pasted in the Admin tab); null when unknown. */
export function useOperatorToken() {
  return useQuery({ queryKey: ['operator-token'], queryFn: async () => (await loadOperatorToken()) ?? null, staleTime: Infinity });
}
