import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagedFiles } from '../packaged-files.js';

/**
 * Where `vite build` put the console: `dist/web` beside the compiled server (running from dist/)
 * or under the checkout (running from sources with tsx), or where a packaged program put it. Null
 * when none holds a build.
 */
export const defaultConsoleDirectory = (): string | null => {
  const packaged = packagedFiles();
  if (packaged) return packaged.consoleDirectory;
  const candidates = ['../../web', '../../dist/web'].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(`${dir}/index.html`)) ?? null;
};
