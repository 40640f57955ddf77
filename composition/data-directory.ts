import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Config, onDisk } from './config.js';

const errnoOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * Creates `path` and its missing parents, one level at a time. Node's own recursive mkdir never
 * returns when a parent refuses a new entry with ENOENT (under /proc, say); here that fails at once.
 * A part of the path that is a file fails with ENOTDIR.
 */
export const ensureDirectory = (path: string): void => {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      if (statSync(current).isDirectory()) break;
      // The nearest part of the path that exists is a file: name it, not the folder asked for.
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${current}'`), {
        code: 'ENOTDIR',
        syscall: 'mkdir',
        path: current,
      });
    } catch (error) {
      // ENOTDIR from stat: a part further up is a file; the walk up finds which.
      const code = errnoOf(error);
      if (!(code === 'ENOENT' || (code === 'ENOTDIR' && (error as NodeJS.ErrnoException).syscall === 'stat'))) {
        throw error;
      }
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory);
    } catch (error) {
      // Another process starting at the same moment may have made it.
      if (errnoOf(error) !== 'EEXIST') throw error;
    }
  }
};

/**
 * Makes the SQLite file's folder, and checks that this process may write in it, before anything
 * opens the database: a folder that cannot work then fails the start at once, by its path,
 * rather than as a database error later. Nothing to do for Postgres or an in-memory database.
 */
export const prepareDataDirectory = (config: Config): void => {
  if (!onDisk(config.databaseUrl)) return;
  // The SQLite file's folder.
  ensureDirectory(config.dataDirectory);
  accessSync(config.dataDirectory, constants.W_OK);
};
