import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { TestInstance } from './http.js';

/** Serves a test instance on a free port of loopback, for clients that speak real HTTP. */
export const listen = async (instance: TestInstance) => {
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: instance.conveyor.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started as Server),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
