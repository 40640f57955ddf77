import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // Vitest's default (cores - 1) runs one file at a time on a two-core machine, yet most files wait
    // on databases, sockets, child processes and timers far more than they compute: two at a time
    // there. The --maxWorkers flag still overrides it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
