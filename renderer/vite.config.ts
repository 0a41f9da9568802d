import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// No node: imports here (the renderer's lint forbids them): file URLs of this directory, decoded.
const here = (p: string) => decodeURIComponent(new URL(p, import.meta.url).pathname);
const root = here('.');
// `vite --config renderer/vite.config.ts` (dev server) proxies the API to a running engine.
const engine = process.env.ENGINE_URL ?? 'http://127.0.0.1:8080';
const apiPaths = ['/config', '/markets', '/book', '/books', '/trades', '/auth', '/order', '/orders', '/data', '/balance-allowance',
  '/cancel-all', '/cancel-market-orders', '/midpoint', '/price', '/prices', '/spread', '/last-trade-price', '/prices-history',
  '/tick-size', '/neg-risk', '/time', '/admin', '/relayer', '/data-api', '/redeem'];

export default defineConfig({
  root,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((p) => [p, { target: engine, changeOrigin: true }])),
  },
});
