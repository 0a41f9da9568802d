import { createServer } from 'node:net';

/**
 * The terminal keeps burner wallets and API keys in the browser's storage, which is per origin
 * (host AND port). A fresh random port each launch would hide them, so the desktop app and `npm start`
 * prefer one fixed loopback port and fall back to a free one only when it is taken.
 */
export const PREFERRED_TERMINAL_PORT = 17317;

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** The preferred port when free, else 0 (the engine then picks any free port). */
export async function pickPort(preferred = PREFERRED_TERMINAL_PORT, host = '127.0.0.1'): Promise<number> {
  return (await isPortFree(preferred, host)) ? preferred : 0;
}
