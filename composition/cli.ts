#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createCli } from '../adapters/cli/cli.js';
import { cliHost } from './cli-host.js';

/** The `conveyor` command line (adapters/cli) on this composition's host. */
export const runCli = createCli(cliHost);

/** True when this file is the program node was started with, also through npm's bin symlink. */
const isEntryPoint = (): boolean => {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
};

if (isEntryPoint()) {
  // exitCode, not exit(): after `start` the server must keep the process alive.
  process.exitCode = await runCli(process.argv.slice(2), process);
}
