import { homedir } from 'node:os';
import { getAsset } from 'node:sea';
import { usePackagedFiles } from '../adapters/packaged-files.js';
import { type BinaryManifest, cacheRoot, extractFiles, MANIFEST_ASSET, packagedFilesIn } from './binary-files.js';

/**
 * The entry of the single executable (scripts/build-binary.ts bundles it as CommonJS, which a
 * Node 20 SEA requires, so no top-level await). What must be a file (native addons, the worker
 * threads' code, the WebAssembly, the console) is extracted to the cache folder, and the adapters
 * are told where before the modules reading it load: hence the dynamic imports.
 */
const main = async (): Promise<number> => {
  const manifest = JSON.parse(getAsset(MANIFEST_ASSET, 'utf8')) as BinaryManifest;
  const root = cacheRoot(process.env, homedir());
  let folder: string;
  try {
    folder = extractFiles(manifest, (asset) => getAsset(asset), root);
  } catch (error) {
    process.stderr.write(
      `conveyor: cannot write its files to ${root} (${(error as Error).message}); set CONVEYOR_CACHE_DIR to a folder it may write.\n`,
    );
    return 1;
  }
  usePackagedFiles(packagedFilesIn(folder));
  const { createCli } = await import('../adapters/cli/cli.js');
  const { cliHost } = await import('./cli-host.js');
  // A SEA's argv is [executable, executable, ...arguments], as node's is [node, script, ...].
  return createCli(cliHost)(process.argv.slice(2), process);
};

main().then(
  (code) => {
    // exitCode, not exit(): after `start` the server must keep the process alive.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
