import { serve } from '@hono/node-server';
import { isPostgresUrl } from '../adapters/persistence/open-database.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Conveyor, createConveyor } from './conveyor.js';

/** Stops on SIGINT/SIGTERM: in-flight runs finish or are released, then the database closes. */
const stopOnSignals = (conveyor: Conveyor, before: (done: () => void) => void = (done) => done()) => {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    conveyor.logger.info({ signal }, 'shutting down');
    before(() => {
      conveyor
        .close()
        .then(() => process.exit(0))
        .catch(() => process.exit(1));
    });
    // Keep-alive connections and long runs must not hold the process forever.
    setTimeout(() => process.exit(0), 15_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

const failed = (error: unknown) => {
  const text =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`${text}\n`);
  process.exit(1);
};

const database = (config: Config) => (isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite');

/** `npm start` / `conveyor start`: the HTTP server and a worker in one process. */
export const runServer = async () => {
  try {
    const config = loadConfig(process.env);
    const conveyor = await createConveyor(config, {}, { worker: config.serverRunsFlows });
    const server = serve({ fetch: conveyor.app.fetch, port: config.port, hostname: config.host }, (info) => {
      conveyor.logger.info(
        { address: info.address, port: info.port, database: database(config) },
        `Conveyor listening on http://${info.address}:${info.port}`,
      );
    });
    stopOnSignals(conveyor, (done) => server.close(done));
  } catch (error) {
    failed(error);
  }
};

/** `conveyor worker`: runs flows only, beside servers on the same Postgres database. */
export const runWorker = async () => {
  try {
    const config = loadConfig(process.env);
    const conveyor = await createConveyor(config, {}, { worker: true });
    conveyor.logger.info({ database: database(config) }, 'Conveyor worker running');
    stopOnSignals(conveyor);
  } catch (error) {
    failed(error);
  }
};
