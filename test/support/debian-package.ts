import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export type PackageAvailability = { readonly path: string } | { readonly missing: string };

const logger = (tag: string) => (line: string) => process.stderr.write(`[${tag}] ${line}\n`);

const run = (log: (line: string) => void, command: string, args: string[]) => {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? [command, args] : ['sudo', ['-n', command, ...args]];
  log(`running: ${[file, ...argv].join(' ')}`);
  const result = spawnSync(file, argv, {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15 * 60_000,
  });
  const tail = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-5).join('\n');
  if (tail) log(tail);
  return result.status === 0;
};

/**
 * `path` (a program of Debian's package `name`), installed with apt when it is missing (logged line
 * by line, tagged `tag`). `missing` says why it is not there when apt could not install it.
 */
export const ensureDebianPackage = (name: string, path: string, tag = name): PackageAvailability => {
  if (existsSync(path)) return { path };
  const log = logger(tag);
  log(`${path} is missing: installing Debian's ${name} package with apt-get.`);
  const install = ['install', '-y', '--no-install-recommends', name];
  if (!run(log, 'apt-get', install)) {
    log('apt-get install failed; refreshing the package lists (apt-get update) and trying once more.');
    run(log, 'apt-get', ['update']);
    run(log, 'apt-get', install);
  }
  if (existsSync(path)) {
    log(`installed ${path}.`);
    return { path };
  }
  return { missing: `apt-get could not install ${name}, so ${path} is still missing.` };
};
