import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where `vite build` put the console: `dist/web` beside the compiled server (running from dist/)
 * or under the checkout (running from sources with tsx). Null when neither holds a build.
 */
export const defaultConsoleDirectory = (): string | null => {
  const candidates = ['../../web', '../../dist/web'].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(`${dir}/index.html`)) ?? null;
};
