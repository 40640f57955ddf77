import { defineConfig } from 'vitest/config';

/**
 * `npm run test:crash`: the crash suite kills processes and restarts PostgreSQL, so it runs on its
 * own, never as part of `npm test` (whose files end in .test.ts).
 */
export default defineConfig({
  test: {
    include: ['test/crash/**/*.crash.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60 * 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
