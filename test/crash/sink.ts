import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The outside world of the crash suite: a loopback service that counts what it receives by
 * `Idempotency-Key` and by the webhook id in the body. A delivery repeated under the same key is
 * the allowed at-least-once retry (a receiver honouring the key performs it once); two keys for
 * one webhook id are an effect that happened twice.
 */
export const startSink = async () => {
  /** Deliveries per idempotency key, and the webhook id each key carried. */
  const byKey = new Map<string, { id: string; count: number }>();
  /** Idempotency keys seen per webhook id. */
  const keysById = new Map<string, Set<string>>();
  let withoutKey = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const key = req.headers['idempotency-key'];
      const id = String((JSON.parse(Buffer.concat(chunks).toString() || '{}') as { id?: unknown }).id);
      if (typeof key !== 'string') withoutKey++;
      else {
        const seen = byKey.get(key) ?? { id, count: 0 };
        seen.count++;
        byKey.set(key, seen);
        keysById.set(id, (keysById.get(id) ?? new Set()).add(key));
      }
      // A short, varying answer time widens the window in which a kill finds a step in flight.
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        Math.floor(Math.random() * 40),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    byKey,
    keysById,
    withoutKey: () => withoutKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type Sink = Awaited<ReturnType<typeof startSink>>;
