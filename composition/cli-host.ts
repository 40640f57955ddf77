import type { Kysely } from 'kysely';
import { generateLicenseKeyPair, signLicense } from '../adapters/auth/license.js';
import { type CliIo, CommandError } from '../adapters/cli/command-line.js';
import type { CliHost } from '../adapters/cli/host.js';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { migrateToLatest } from '../adapters/persistence/migrate.js';
import { forgetUnreadable } from '../adapters/persistence/sealed-secrets.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { buildContainer, resolve } from './container.js';
import { prepareDataDirectory } from './data-directory.js';
import { presentKeyIds } from './encryption-key.js';
import { startInstance } from './instance.js';
import { explainStartupFailure } from './start-up-failure.js';
import { TOKENS } from './tokens.js';

const configOf = (io: CliIo): Config => {
  try {
    return loadConfig(io.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandError(error.message);
    throw error;
  }
};

const loggerOf = (config: Config, io: CliIo) => createPinoLogger(config.logLevel, io.stderr);

/** Opens what `open` opens; a failure gets the one-line explanation a server's start gives. */
const opening = async <T>(config: Config, open: () => T | Promise<T>): Promise<T> => {
  try {
    return await open();
  } catch (error) {
    throw new CommandError(explainStartupFailure(error, config));
  }
};

/**
 * Runs `work` on the database alone, migrated by nothing but `work`: no instance is started, so
 * that commands such as forget-credentials work where a start is refused.
 */
const withDatabase = async <T>(io: CliIo, work: (db: Kysely<any>, config: Config) => Promise<T>): Promise<T> => {
  const config = configOf(io);
  const database = await opening(config, () => {
    prepareDataDirectory(config);
    return resolve(buildContainer(config, { logger: loggerOf(config, io) }), TOKENS.database);
  });
  try {
    return await opening(config, () => work(database.db, config));
  } finally {
    await database.close();
  }
};

/** The CLI's host: the instance the environment configures, the processes, the licence keys. */
export const cliHost: CliHost = {
  async withUseCases(io, work) {
    const config = configOf(io);
    const conveyor = await opening(config, () =>
      startInstance(config, { logger: loggerOf(config, io) }, { worker: false }),
    );
    try {
      return await work(conveyor.useCases);
    } finally {
      await conveyor.close();
    }
  },

  migrate: (io) => withDatabase(io, (db) => migrateToLatest(db)),

  forgetCredentials: (io, apply) =>
    withDatabase(io, (db, config) => forgetUnreadable(db, presentKeyIds(config), apply)),

  // Loaded when asked for: the other commands have no use for the server's modules.
  runServer: async (env) => (await import('./processes.js')).runServer(env),
  runWorker: async (env) => (await import('./processes.js')).runWorker(env),

  licenses: { generateKeyPair: generateLicenseKeyPair, sign: signLicense },
};
