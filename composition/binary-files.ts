import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PackagedFiles } from '../adapters/packaged-files.js';
import { ensureDirectory } from './data-directory.js';

/**
 * Where each file the single executable carries goes in its cache folder: the build
 * (scripts/build-binary.ts) puts them in by these names, the entry (binary.ts) finds them by them.
 */
export const BINARY_FILES = {
  consoleDirectory: 'web',
  sandboxWorker: 'sandbox-worker.mjs',
  quickjsWasm: 'quickjs.wasm',
  sqliteDriver: 'better-sqlite3.cjs',
  sqliteAddon: 'better_sqlite3.node',
  argon2Addon: 'argon2.node',
} as const satisfies Record<keyof PackagedFiles, string>;

/** The executable's asset that lists the others. */
export const MANIFEST_ASSET = 'manifest.json';

/** What the build put in the executable beside its code: each asset, and its path in the cache folder. */
export interface BinaryManifest {
  readonly version: string;
  /** Of every file's path and content, so that two builds of one version never share a folder. */
  readonly hash: string;
  readonly files: readonly { readonly asset: string; readonly path: string }[];
}

/** `CONVEYOR_CACHE_DIR`, else `$XDG_CACHE_HOME/conveyor`, else `~/.cache/conveyor`. */
export const cacheRoot = (env: Record<string, string | undefined>, home: string): string =>
  env.CONVEYOR_CACHE_DIR || join(env.XDG_CACHE_HOME || join(home, '.cache'), 'conveyor');

export const packagedFilesIn = (folder: string): PackagedFiles => {
  const entries = Object.entries(BINARY_FILES).map(([name, path]) => [name, join(folder, path)]);
  return Object.fromEntries(entries) as unknown as PackagedFiles;
};

/**
 * The folder `<root>/<version>-<hash>` holding the manifest's files, written on the first start of
 * a build and reused after. They are written into a temporary folder beside it and renamed into
 * place whole, so that a process starting at the same moment finds no folder or a complete one;
 * of two processes writing at once, the second rename fails and that process uses the first's.
 */
export const extractFiles = (manifest: BinaryManifest, read: (asset: string) => ArrayBuffer, root: string): string => {
  const target = join(root, `${manifest.version}-${manifest.hash}`);
  const complete = () => manifest.files.every((file) => existsSync(join(target, file.path)));
  if (existsSync(target)) {
    if (complete()) return target;
    // Someone removed files from it: it is written again.
    rmSync(target, { recursive: true, force: true });
  }
  ensureDirectory(root);
  const temporary = mkdtempSync(join(root, `.${manifest.version}-${manifest.hash}-`));
  try {
    for (const file of manifest.files) {
      const path = join(temporary, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, new Uint8Array(read(file.asset)));
    }
    try {
      renameSync(temporary, target);
    } catch (error) {
      if (!complete()) throw error;
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  return target;
};
