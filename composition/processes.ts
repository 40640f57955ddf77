import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { isPostgresUrl } from '../adapters/persistence/open-database.js';
import type { Logger } from '../ports/logger.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Conveyor, createConveyor } from './conveyor.js';
import { limitHeapGrowth } from './heap-growth.js';

/**
 * Stops on SIGINT/SIGTERM: `drain` first (the HTTP server stops accepting and lets requests in
 * flight finish), then the instance (in-flight runs finish or are released, the database closes),
 * then exit 0. Each step is bounded by SHUTDOWN_TIMEOUT_SECONDS; should the whole still hang, the
 * process exits 1 so that a supervisor sees a shutdown that was not clean.
 */
const stopOnSignals = (conveyor: Conveyor, config: Config, drain: () => Promise<void> = () => Promise.resolve()) => {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    conveyor.logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
    setTimeout(
      () => {
        conveyor.logger.error({ signal }, 'shutdown did not finish in time; exiting');
        process.exit(1);
      },
      2 * config.shutdownTimeoutMs + 5_000,
    ).unref();
    drain()
      .then(() => conveyor.close())
      .then(() => {
        conveyor.logger.info({ signal }, 'shut down cleanly');
        process.exit(0);
      })
      .catch((error: unknown) => {
        conveyor.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

/**
 * Stops accepting connections and closes idle keep-alive ones, at once and again as requests in
 * flight finish (their connections would otherwise idle on until the keep-alive time-out);
 * requests still in flight after `timeoutMs` have their connections cut.
 */
const drainServer = (server: Server, timeoutMs: number, logger: Logger) =>
  new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs }, 'requests still in flight at the shutdown time-out; closing their connections');
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });

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
    limitHeapGrowth(config.heapGrowthPercent);
    const conveyor = await createConveyor(config, {}, { worker: config.serverRunsFlows });
    // Plain HTTP/1 (no createServer option given), so a node:http Server.
    const server = serve({ fetch: conveyor.app.fetch, port: config.port, hostname: config.host }, (info) => {
      conveyor.logger.info(
        { address: info.address, port: info.port, database: database(config) },
        `Conveyor listening on http://${info.address}:${info.port}`,
      );
    }) as Server;
    stopOnSignals(conveyor, config, () => drainServer(server, config.shutdownTimeoutMs, conveyor.logger));
  } catch (error) {
    failed(error);
  }
};

/** `conveyor worker`: runs flows only, beside servers on the same Postgres database. */
export const runWorker = async () => {
  try {
    const config = loadConfig(process.env);
    limitHeapGrowth(config.heapGrowthPercent);
    const conveyor = await createConveyor(config, {}, { worker: true });
    conveyor.logger.info({ database: database(config) }, 'Conveyor worker running');
    stopOnSignals(conveyor, config);
  } catch (error) {
    failed(error);
  }
};
