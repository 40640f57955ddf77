// Runs before `npm start`: rebuilds dist/ only when a source file is newer than the last build,
// so a fresh clone starts at once (install built it) and an edited checkout never runs stale code.
// Two parts: the server (tsc, stamped by dist/.tsbuildinfo) and the web console (vite, stamped by
// dist/web/index.html).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const CONSOLE = join('adapters', 'web', 'console');
const SERVER_SOURCES = ['core', 'ports', 'adapters', 'composition'];
const SERVER_STAMP = 'dist/.tsbuildinfo';
const CONSOLE_STAMP = 'dist/web/index.html';

const newestSource = (dir, { skip = null, extensions }) => {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (path === skip) continue;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path, { skip, extensions }));
    else if (extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
};

const builtAt = (stamp) => {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return 0;
  }
};

const serverNewest = Math.max(
  ...SERVER_SOURCES.map((dir) => newestSource(dir, { skip: CONSOLE, extensions: ['.ts'] })),
  statSync('tsconfig.build.json').mtimeMs,
);
if (serverNewest > builtAt(SERVER_STAMP)) {
  process.stderr.write('Sources changed since the last build: compiling (npm run build)...\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  // tsc leaves unchanged outputs untouched; mark the build as current ourselves.
  const now = new Date();
  utimesSync(SERVER_STAMP, now, now);
}

// An installed package carries the built console only: nothing to compare against then.
const consoleNewest = existsSync(CONSOLE)
  ? Math.max(
      newestSource(CONSOLE, { extensions: ['.ts', '.tsx', '.css', '.html'] }),
      statSync('vite.config.ts').mtimeMs,
    )
  : 0;
if (consoleNewest > builtAt(CONSOLE_STAMP)) {
  process.stderr.write('Web console sources changed since the last build: building it (vite build)...\n');
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { stdio: 'inherit' });
}
