import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { WagmiProvider } from 'wagmi';
import { App } from './App.js';
import { publicApi } from './api/clientAdapter.js';
import { describeError } from './api/describeError.js';
import { createWagmiConfig } from './wallets/wagmiConfig.js';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Errors with a status are answers, not outages: retrying a 4xx only delays showing it.
      retry: (count, error) => count < 2 && describeError(error).status === undefined,
      refetchOnWindowFocus: false,
    },
    // An order or key request sent while the engine is down fails at once with its words; it must never
    // wait, paused, and go out by itself when the engine comes back.
    mutations: { networkMode: 'always' },
  },
});

async function boot(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  let config;
  try {
    // wagmi needs the chain before it renders: GET /config names it (chain id and RPC URL).
    config = await publicApi.config();
    queryClient.setQueryData(['config'], config);
  } catch (e) {
    const d = describeError(e);
    root.render(
      <div className="fatal" data-testid="boot-error">
        <h1>The exchange engine did not answer</h1>
        <p>
          <code>{d.code}</code> {d.message}
        </p>
        <button onClick={() => location.reload()}>Retry</button>
      </div>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <WagmiProvider config={createWagmiConfig(config)}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  );
}

void boot();
