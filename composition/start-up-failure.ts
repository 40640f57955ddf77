import { isPostgresUrl } from '../adapters/persistence/open-database.js';
import { errorMessage } from '../core/domain/errors.js';
import { type Config, ConfigError } from './config.js';

interface Coded {
  readonly code?: unknown;
  readonly path?: unknown;
  readonly cause?: unknown;
  readonly message?: unknown;
}

/** The error and the errors it wraps (a DatabaseUnavailableError wraps the driver's), outermost first. */
const chainOf = (error: unknown): Coded[] => {
  const chain: Coded[] = [];
  for (let e = error; e !== null && typeof e === 'object' && chain.length < 5; e = (e as Coded).cause) {
    chain.push(e as Coded);
  }
  return chain;
};

const codeOf = (error: unknown): string | undefined => {
  for (const e of chainOf(error)) if (typeof e.code === 'string') return e.code;
  return undefined;
};

/** Where the Postgres database is, without the password. */
const postgresPlace = (url: string): string => {
  try {
    const { hostname, port, pathname } = new URL(url);
    return `${hostname || 'localhost'}:${port || '5432'}${pathname || '/'}`;
  } catch {
    return 'the server in DATABASE_URL';
  }
};

/** A failure already told in an operator's words. */
export class StartupFailure extends Error {}

/** Why the HTTP server could not listen, told as a StartupFailure. */
export const listenFailure = (error: unknown, config: Config): Error => {
  const code = codeOf(error);
  const where = `port ${config.port} on ${config.host}`;
  if (code === 'EADDRINUSE') {
    return new StartupFailure(
      `Cannot listen on ${where}: another program uses it. Stop that program, or set PORT to a free port.`,
    );
  }
  if (code === 'EACCES') {
    return new StartupFailure(
      `Cannot listen on ${where}: this user may not open ports below 1024. Set PORT to 1024 or above (a proxy can serve port ${config.port}).`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new StartupFailure(
      `Cannot listen on ${where}: ${config.host} is not an address of this machine. Set HOST to one (127.0.0.1, or 0.0.0.0 for every interface).`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
};

const postgresFailure = (code: string | undefined, error: unknown, config: Config): string | null => {
  const place = postgresPlace(config.databaseUrl);
  const database = place.slice(place.indexOf('/') + 1);
  switch (code) {
    case 'ECONNREFUSED':
      return `Cannot reach the database: nothing answers at ${place}. Start PostgreSQL, or correct the host and port in DATABASE_URL.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot reach the database: the host of ${place} is not found. Correct the host in DATABASE_URL.`;
    case '3D000':
      return `The database "${database}" does not exist at ${place}. Create it (createdb ${database}), or correct the database name in DATABASE_URL.`;
    case '28000':
    case '28P01':
      return `PostgreSQL at ${place} refused the user or password of DATABASE_URL (${errorMessage(chainOf(error).at(-1))}). Correct them in DATABASE_URL.`;
    case '42501':
      return `The user of DATABASE_URL may not create Conveyor's tables at ${place} (${errorMessage(chainOf(error).at(-1))}). Grant it the rights on the database, or use its owner.`;
    case '53100':
      return `The disk of the database server at ${place} is full. Free space there, then start again.`;
    default:
      break;
  }
  const message = errorMessage(error);
  if (code === 'ETIMEDOUT' || code === '57P03' || /timeout|timed out/i.test(message)) {
    return `Cannot reach the database: ${place} did not answer in time. Check that PostgreSQL is running and reachable from here, or correct DATABASE_URL.`;
  }
  return null;
};

const fileFailure = (code: string | undefined, error: unknown, config: Config): string | null => {
  const path = chainOf(error).find((e) => typeof e.path === 'string')?.path as string | undefined;
  const file = config.databaseUrl;
  const folder = config.dataDirectory;
  const fix = isPostgresUrl(file)
    ? `Make ${folder} a folder this user can write (it keeps the generated encryption key and the mail outbox), or set ENCRYPTION_KEY and SMTP_URL`
    : 'Set DATABASE_URL to a file in a folder this user can write, or correct that folder';
  switch (code) {
    case 'ENOTDIR':
      return `Cannot use the data folder ${folder}: ${path ?? 'a part of its path'} is not a folder. ${fix}.`;
    case 'EACCES':
    case 'EPERM':
      return `Cannot use the data folder ${folder}: this user may not write to ${path ?? folder}. ${fix}.`;
    case 'EROFS':
      return `Cannot use the data folder ${folder}: ${path ?? folder} is on a read-only file system. ${fix}.`;
    case 'ENOENT':
      return `Cannot create the data folder ${path ?? folder}: its parent does not take new folders. ${fix}.`;
    case 'ENOSPC':
    case 'SQLITE_FULL':
      return `The disk holding ${path ?? folder} is full. Free space there, then start again.`;
    case 'SQLITE_CANTOPEN':
      return `Cannot open the SQLite file ${file}. ${fix}.`;
    case 'SQLITE_READONLY':
      return `The SQLite file ${file} is read-only for this user. Give this user write access to it and its folder, or set DATABASE_URL to another file.`;
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return `${file} is not a usable SQLite database. Restore it from a backup, or set DATABASE_URL to another file.`;
    default:
      return null;
  }
};

/**
 * The one line an operator reads when a start fails: what went wrong and what to do about it,
 * in words rather than a stack trace. `config` is absent when the configuration itself failed.
 */
export const explainStartupFailure = (error: unknown, config?: Config): string => {
  if (error instanceof ConfigError || error instanceof StartupFailure) return error.message;
  const code = codeOf(error);
  if (config) {
    const explained =
      (isPostgresUrl(config.databaseUrl) ? postgresFailure(code, error, config) : null) ??
      fileFailure(code, error, config);
    if (explained) return explained;
  }
  return `Conveyor did not start: ${errorMessage(error).split('\n')[0]}. Correct the cause named here, then start again.`;
};
