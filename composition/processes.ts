import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { isPostgresUrl } from '../adapters/persistence/open-database.js';
import { errorMessage } from '../core/domain/errors.js';
import { EXECUTION_JOB } from '../core/engine/jobs.js';
import type { Logger } from '../ports/logger.js';
import { type Config, loadConfig } from './config.js';
import { limitHeapGrowth } from './heap-growth.js';
import { type Instance, startInstance } from './instance.js';
import { explainStartupFailure, listenFailure } from './start-up-failure.js';

/**
 * Stops on SIGINT/SIGTERM: `drain` first (the HTTP server stops accepting and lets requests in
 * flight finish), then the instance (in-flight runs finish or are released, the database closes),
 * then exit 0. Each step is bounded by SHUTDOWN_TIMEOUT_SECONDS; should the whole still hang, the
 * process exits 1 so that a supervisor sees a shutdown that was not clean.
 *
 * The handlers are installed before start-up, not after it: a supervisor that signals as soon as
 * the process says it runs (or while it starts) otherwise met Node's default, death by the signal
 * with no exit code. A signal during start-up is kept and acted on once the instance is up.
 */
const catchStopSignals = (config: Config) => {
  let stop: ((signal: string) => void) | undefined;
  let received: string | undefined;
  const on = (signal: string) => {
    if (received) return;
    received = signal;
    if (stop) stop(signal);
    // A start-up that hangs (a database that never answers) must not outlive the signal.
    else setTimeout(() => process.exit(1), 2 * config.shutdownTimeoutMs + 5_000).unref();
  };
  process.on('SIGINT', () => on('SIGINT'));
  process.on('SIGTERM', () => on('SIGTERM'));
  return (conveyor: Instance, drain: () => Promise<void> = () => Promise.resolve()) => {
    stop = (signal) => {
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
    if (received) stop(received);
  };
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

/** Ends a start that failed with one log line naming the cause and the fix; never a stack trace. */
const failed = (error: unknown, config?: Config): never => {
  createPinoLogger('info').error({ event: 'start_failed' }, explainStartupFailure(error, config));
  process.exit(1);
};

/**
 * Connections the kernel holds for the server while its event loop is busy. Node's default, 511, was
 * overrun by a burst of new connections (a sender whose calls all wait opens more): the kernel then
 * drops them, and their senders see resets and retransmissions of seconds. The kernel caps it at
 * net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

const database = (config: Config) => (isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite');

/**
 * Fails with the port's own message when another program holds it, before anything is made on
 * disk or in the database. The real listen below can still lose a race for the port; it fails
 * the same way.
 */
const checkPortFree = (config: Config) =>
  new Promise<void>((resolve, reject) => {
    if (config.port === 0) {
      resolve();
      return;
    }
    const probe = createServer();
    probe.once('error', (error) => reject(listenFailure(error, config)));
    probe.listen(config.port, config.host, () => probe.close(() => resolve()));
  });

/** The configuration, or the start ends here with every bad variable named. */
const configuration = (env: Readonly<Record<string, string | undefined>>): Config => {
  try {
    return loadConfig(env);
  } catch (error) {
    return failed(error);
  }
};

/** `npm start` / `conveyor start`: the HTTP server and a worker in one process. */
export const runServer = async (env: Readonly<Record<string, string | undefined>> = process.env) => {
  const config = configuration(env);
  const stopOnSignals = catchStopSignals(config);
  try {
    limitHeapGrowth(config.heapGrowthPercent);
    await checkPortFree(config);
    const logger = createPinoLogger(config.logLevel, undefined, 'server');
    const conveyor = await startInstance(config, { logger }, { worker: config.serverRunsFlows });
    // Webhooks send runs to the queue from the first call: what sending needs (pg-boss's start, its
    // queue) is made ready before listening, not while the first calls wait. Should it fail,
    // sending still sets it up.
    await conveyor.queue
      .prepare([EXECUTION_JOB])
      .catch((error: unknown) =>
        conveyor.logger.warn({ err: errorMessage(error) }, 'could not prepare the job queue; its first use will'),
      );
    const server: Server = createServer(conveyor.listener);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
      const info = server.address() as AddressInfo;
      conveyor.logger.info(
        { address: info.address, port: info.port, database: database(config) },
        `Conveyor listening on http://${info.address}:${info.port}`,
      );
    });
    server.once('error', (error) => failed(listenFailure(error, config), config));
    stopOnSignals(conveyor, () => drainServer(server, config.shutdownTimeoutMs, conveyor.logger));
  } catch (error) {
    failed(error, config);
  }
};

/** `conveyor worker`: runs flows only, beside servers on the same Postgres database. */
export const runWorker = async (env: Readonly<Record<string, string | undefined>> = process.env) => {
  const config = configuration(env);
  const stopOnSignals = catchStopSignals(config);
  try {
    limitHeapGrowth(config.heapGrowthPercent);
    const logger = createPinoLogger(config.logLevel, undefined, 'worker');
    const conveyor = await startInstance(config, { logger }, { worker: true });
    stopOnSignals(conveyor);
    conveyor.logger.info({ database: database(config) }, 'Conveyor worker running');
  } catch (error) {
    failed(error, config);
  }
};
