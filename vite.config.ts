import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The web console (adapters/web/console) built into dist/web, which the server serves at `/`.
 * `npm run dev:console` serves it with hot reload and sends API calls to a running Conveyor.
 */
const apiTarget = process.env.CONVEYOR_URL ?? 'http://127.0.0.1:3000';
const proxied = ['/api', '/apps', '/webhooks', '/forms', '/graphql', '/healthcheck', '/login/saml', '/logout/saml'];

export default defineConfig({
  root: fileURLToPath(new URL('./adapters/web/console', import.meta.url)),
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // Maps are written but not referenced from the scripts: the server points browsers at them
    // with a SourceMap header outside production, and does not serve them in production.
    sourcemap: 'hidden',
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
  },
  logLevel: 'warn',
});
