import { serve } from '@hono/node-server';
import { isPostgresUrl } from '../adapters/persistence/open-database.js';
import { ConfigError, loadConfig } from './config.js';
import { createConveyor } from './conveyor.js';

/** `npm start`: the HTTP server (and, from the engine on, the worker) in one process. */
const main = async () => {
  const config = loadConfig(process.env);
  const conveyor = await createConveyor(config);
  const server = serve({ fetch: conveyor.app.fetch, port: config.port, hostname: config.host }, (info) => {
    conveyor.logger.info(
      { address: info.address, port: info.port, database: isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite' },
      `Conveyor listening on http://${info.address}:${info.port}`,
    );
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    conveyor.logger.info({ signal }, 'shutting down');
    server.close(() => {
      conveyor
        .close()
        .then(() => process.exit(0))
        .catch(() => process.exit(1));
    });
    // Keep-alive connections can hold close() open; do not wait on them forever.
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

main().catch((error: unknown) => {
  const text =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
