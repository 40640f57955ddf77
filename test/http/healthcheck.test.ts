import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../composition/config.js';
import { type Instance, startInstance } from '../../composition/instance.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

/**
 * A loopback relay to the test Postgres server that the test can cut and restore: the database
 * becomes unreachable for this instance alone, not for the suites running beside it.
 */
const startRelay = async (target: { readonly host: string; readonly port: number }) => {
  const sockets = new Set<Socket>();
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const cut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return { port, cut, restore: () => listen(port).then(() => undefined) };
};

describe.runIf(DIALECTS.includes('postgres'))('GET /healthcheck when the database goes away (postgres)', () => {
  let database: TestDatabase;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let conveyor: Instance;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const url = new URL(database.url);
    relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: url.toString(),
      DATABASE_POOL_TIMEOUT_MS: '500',
      QUEUE: 'local',
    });
    conveyor = await startInstance(config, {}, { worker: false });
  });
  afterAll(async () => {
    await conveyor.close();
    await database.drop();
  });

  const health = async () => {
    const res = await conveyor.app.request('/healthcheck');
    return { status: res.status, body: await res.json() };
  };

  it('answers 503 while the database is unreachable, and 200 again once it is back', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });

    await relay.cut();
    expect(await health()).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'The database does not answer.' },
    });

    await relay.restore();
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
