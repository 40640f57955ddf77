// `npm run build:binary`: Conveyor as one executable file, a Node.js single executable application
// (SEA) holding the bundled server and every file it needs. docs/binary.md says how it works.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { inject } from 'postject';
import { BINARY_FILES, type BinaryManifest, MANIFEST_ASSET } from '../composition/binary-files.js';
import { RELEASE } from '../core/domain/release.js';

const run = promisify(execFile);

/** The fuse Node looks for to know that a blob was injected (its documentation names it). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export interface BinaryBuild {
  readonly path: string;
  readonly checksumPath: string;
  readonly bytes: number;
  readonly stripped: boolean;
}

/**
 * @node-rs/argon2's loader finds its addon through `require`, which in a SEA loads only Node's own
 * modules: it is replaced by a module that opens the file the entry extracted.
 */
const argon2FromExtractedFile = (root: string): Plugin => ({
  name: 'argon2-from-extracted-file',
  setup(build) {
    build.onLoad({ filter: /[\\/]@node-rs[\\/]argon2[\\/]index\.js$/ }, () => ({
      contents: `const { loadAddon, packagedFiles } = require(${JSON.stringify(join(root, 'adapters', 'packaged-files.ts'))});
module.exports = loadAddon(packagedFiles().argon2Addon);`,
      loader: 'js',
    }));
  },
});

const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });

const argon2AddonOf = (require: NodeJS.Require): string => {
  const name = `@node-rs/argon2-${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`;
  const manifest = require.resolve(`${name}/package.json`);
  const main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main: string }).main;
  return join(dirname(manifest), main);
};

/** postject's ELF reader warns about each note section of a stripped node, which works all the same. */
const withoutNoteWarnings = async <T>(work: () => Promise<T>): Promise<T> => {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/Can't find string offset for section name/.test(String(args[0]))) warn(...args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
};

const commandExists = async (command: string) => {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
};

/**
 * Builds `<out>/bin/conveyor-<os>-<arch>` and its `.sha256` from the sources and `dist/web` (which
 * `npm run build` makes); `out` is `dist` unless a test chooses its own. Intermediate files go to
 * `<out>/binary/`.
 */
export const buildBinary = async ({
  root = process.cwd(),
  out = join(root, 'dist'),
  log = (line: string) => process.stdout.write(`${line}\n`),
}: {
  root?: string;
  out?: string;
  log?: (line: string) => void;
} = {}): Promise<BinaryBuild> => {
  const web = join(root, 'dist', 'web');
  if (!existsSync(join(web, 'index.html'))) throw new Error(`${web} holds no console: run npm run build first.`);
  const work = join(out, 'binary');
  const files = join(work, 'files');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(files, { recursive: true });
  const require = createRequire(join(root, 'package.json'));

  const common: BuildOptions = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    // The code reading import.meta.url runs only when no packaged file is set (adapters/packaged-files.ts).
    logOverride: { 'empty-import-meta': 'silent' },
    // pg's optional native driver, never installed nor used.
    external: ['pg-native'],
  };
  await build({
    ...common,
    entryPoints: [join(root, 'composition', 'binary.ts')],
    format: 'cjs',
    outfile: join(work, 'conveyor.cjs'),
    plugins: [argon2FromExtractedFile(root)],
  });
  await build({
    ...common,
    entryPoints: [join(root, 'adapters', 'apps', 'code', 'sandbox-worker.ts')],
    format: 'esm',
    outfile: join(files, BINARY_FILES.sandboxWorker),
    // CommonJS packages in an ES module bundle still require Node's modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  await build({
    ...common,
    entryPoints: [require.resolve('better-sqlite3')],
    format: 'cjs',
    outfile: join(files, BINARY_FILES.sqliteDriver),
  });
  copyFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'), join(files, BINARY_FILES.quickjsWasm));
  copyFileSync(
    join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node'),
    join(files, BINARY_FILES.sqliteAddon),
  );
  copyFileSync(argon2AddonOf(require), join(files, BINARY_FILES.argon2Addon));
  cpSync(web, join(files, BINARY_FILES.consoleDirectory), { recursive: true });

  // Assets are named by their path in the cache folder, always with forward slashes.
  const listed = filesUnder(files)
    .map((path) => ({ path: relative(files, path).split(sep).join('/'), source: path }))
    .sort((a, b) => a.path.localeCompare(b.path));
  const hash = createHash('sha256');
  for (const file of listed) hash.update(`${file.path}\0`).update(readFileSync(file.source));
  const manifest: BinaryManifest = {
    version: RELEASE,
    hash: hash.digest('hex').slice(0, 16),
    files: listed.map((file) => ({ asset: file.path, path: file.path })),
  };
  writeFileSync(join(work, MANIFEST_ASSET), JSON.stringify(manifest));
  const seaConfig = join(work, 'sea-config.json');
  const blob = join(work, 'sea-prep.blob');
  writeFileSync(
    seaConfig,
    JSON.stringify(
      {
        main: join(work, 'conveyor.cjs'),
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: {
          [MANIFEST_ASSET]: join(work, MANIFEST_ASSET),
          ...Object.fromEntries(listed.map((file) => [file.path, file.source])),
        },
      },
      null,
      2,
    ),
  );
  await run(process.execPath, ['--experimental-sea-config', seaConfig], { cwd: root });

  const bin = join(out, 'bin');
  mkdirSync(bin, { recursive: true });
  const name = `conveyor-${process.platform}-${process.arch}`;
  const path = join(bin, name);
  rmSync(path, { force: true });
  // node ships with its debug symbols; a native addon needs only the dynamic symbols, which strip keeps.
  const stripped = await commandExists('strip');
  if (stripped) await run('strip', ['-o', path, process.execPath]);
  else {
    copyFileSync(process.execPath, path);
    log(`Not stripped (no strip command): ${name} keeps node's debug symbols and is about 13 MB larger.`);
  }
  chmodSync(path, 0o755);
  await withoutNoteWarnings(() => inject(path, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE }));

  const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
  const checksumPath = `${path}.sha256`;
  writeFileSync(checksumPath, `${digest}  ${basename(path)}\n`);
  const bytes = statSync(path).size;
  log(
    `${relative(root, path)}: ${(bytes / 1e6).toFixed(1)} MB${stripped ? ', stripped' : ''}; sha256 in ${relative(root, checksumPath)}`,
  );
  return { path, checksumPath, bytes, stripped };
};

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  await buildBinary();
}
