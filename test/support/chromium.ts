import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Chromium: the browser the end-to-end suites drive through playwright-core. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export type ChromiumAvailability = { readonly path: string } | { readonly missing: string };

const log = (line: string) => process.stderr.write(`[chromium] ${line}\n`);

const run = (command: string, args: string[]) => {
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
 * Chromium at /usr/bin/chromium, installed with apt when it is missing (logged line by line).
 * `missing` says why it is not there when apt could not install it.
 */
export const ensureChromium = (): ChromiumAvailability => {
  if (existsSync(CHROMIUM_PATH)) return { path: CHROMIUM_PATH };
  log(`${CHROMIUM_PATH} is missing: installing Debian's chromium package with apt-get.`);
  if (!run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'])) {
    log('apt-get install failed; refreshing the package lists (apt-get update) and trying once more.');
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  }
  if (existsSync(CHROMIUM_PATH)) {
    log(`installed ${CHROMIUM_PATH}.`);
    return { path: CHROMIUM_PATH };
  }
  return { missing: `apt-get could not install chromium, so ${CHROMIUM_PATH} is still missing.` };
};
