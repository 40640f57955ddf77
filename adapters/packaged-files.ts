/**
 * Where the files the adapters load at run time are, when the program does not run from a checkout
 * or node_modules: the single executable (composition/binary.ts) extracts them to a cache folder and
 * says so here before it loads anything else. Unset, every adapter keeps finding its files beside
 * its own module, as `npm start` and the installed package do. A file of its own, shared by the
 * adapters that need it (see .dependency-cruiser.cjs), so that no adapter asks how it was started.
 */
export interface PackagedFiles {
  /** The built web console (dist/web). */
  readonly consoleDirectory: string;
  /** The code step's worker thread, an ES module with its packages bundled in. */
  readonly sandboxWorker: string;
  /** QuickJS's WebAssembly, which the sandbox worker compiles. */
  readonly quickjsWasm: string;
  /** A CommonJS module exporting better-sqlite3, for the SQLite checkpointer's worker thread. */
  readonly sqliteDriver: string;
  /** better-sqlite3's native addon. */
  readonly sqliteAddon: string;
  /** @node-rs/argon2's native addon. */
  readonly argon2Addon: string;
}

let packaged: PackagedFiles | null = null;

/** Called once, by the packaged program's entry, before the modules that read it are loaded. */
export const usePackagedFiles = (files: PackagedFiles): void => {
  packaged = files;
};

export const packagedFiles = (): PackagedFiles | null => packaged;

const addons = new Map<string, unknown>();

/** A native addon from its file: a packaged program's `require` loads only Node's own modules. */
export const loadAddon = (path: string): unknown => {
  let addon = addons.get(path);
  if (addon === undefined) {
    const module = { exports: {} };
    process.dlopen(module, path);
    addon = module.exports;
    addons.set(path, addon);
  }
  return addon;
};
