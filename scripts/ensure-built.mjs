// Runs before `npm start`: rebuilds dist/ only when a source file is newer than the last build,
// so a fresh clone starts at once (install built it) and an edited checkout never runs stale code.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['core', 'ports', 'adapters', 'composition'];
const STAMP = 'dist/.tsbuildinfo';

const newestSource = (dir) => {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
};

let built = 0;
try {
  built = statSync(STAMP).mtimeMs;
} catch {}

if (Math.max(...SOURCES.map(newestSource), statSync('tsconfig.build.json').mtimeMs) > built) {
  process.stderr.write('Sources changed since the last build: compiling (npm run build)...\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  // tsc leaves unchanged outputs untouched; mark the build as current ourselves.
  const now = new Date();
  utimesSync(STAMP, now, now);
}
