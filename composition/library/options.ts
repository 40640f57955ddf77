import type { App } from '../../adapters/apps/sdk/index.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Mailer } from '../../ports/mailer.js';
import { type Config, loadConfig } from '../config.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** How an embedding application configures its Conveyor; every field may be left out. */
export interface ConveyorOptions {
  /**
   * A postgres:// URL, the path of a SQLite file, or ':memory:' (SQLite, gone when stopped).
   * Default: conveyor.db in `dataDirectory`.
   */
  readonly database?: string;
  /**
   * Where the SQLite file (when `database` names none), the generated encryption key and the
   * mail outbox are kept; with a SQLite `database`, its folder is. Default: ./data (~/.conveyor
   * when Conveyor runs from node_modules).
   */
  readonly dataDirectory?: string;
  /** Base64 of 32 bytes (openssl rand -base64 32). Default: a key generated once in `dataDirectory`. */
  readonly encryptionKey?: string;
  /** Where users reach this instance (console links, e-mails, webhook addresses). Default: http://localhost:3000. */
  readonly publicUrl?: string;
  /** Default 'info'; ignored when `logger` is given. */
  readonly logLevel?: LogLevel;
  /** Where Conveyor logs instead of its own pino logger on stdout. */
  readonly logger?: Logger;
  /** Custom apps, offered beside the built-in ones (see `./sdk`). */
  readonly apps?: readonly App[];
  /** False: offer `apps` only, none of the built-in ones. Default true. */
  readonly builtInApps?: boolean;
  /**
   * Run flows in this process. Default true. False for a process that only serves while
   * `conveyor worker` processes on the same Postgres database run the flows.
   */
  readonly worker?: boolean;
  /** Where mail goes instead of SMTP (`environment.SMTP_URL`) or the outbox folder. */
  readonly mailer?: Mailer;
  readonly clock?: Clock;
  /**
   * Any other setting, by the environment variable the README's configuration table names
   * (WORKER_CONCURRENCY, SMTP_URL...). process.env is not read: pass it here to use it.
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
}

/** The options read as the server reads its environment: the same checks, the same ConfigError. */
export const configOf = (options: ConveyorOptions): Config => {
  const env = {
    ...options.environment,
    ...(options.database !== undefined && { DATABASE_URL: options.database }),
    ...(options.dataDirectory !== undefined && { DATA_DIR: options.dataDirectory }),
    ...(options.encryptionKey !== undefined && { ENCRYPTION_KEY: options.encryptionKey }),
    ...(options.publicUrl !== undefined && { WEB_APP_URL: options.publicUrl }),
    ...(options.logLevel !== undefined && { LOG_LEVEL: options.logLevel }),
  };
  return loadConfig(env);
};
