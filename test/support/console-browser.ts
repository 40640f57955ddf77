import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';

/** Builds the console into `outDir`: a suite's own copy, which its instance serves (WEB_CONSOLE_DIR). */
export const buildConsole = async (outDir: string): Promise<void> => {
  await build({ configFile: resolve('vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
};

/** Debian's Chromium (see chromium.ts), headless, with the flags every console suite needs here. */
export const launchChromium = (executablePath: string) =>
  chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-background-networking'] });
