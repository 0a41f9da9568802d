/** Posts one JSON-RPC payload (a request or a batch) to the chain node as it is, and returns its JSON answer. */
export async function rpcForward(rpcUrl: string, payload: unknown, timeoutMs = 15_000): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as unknown;
}
