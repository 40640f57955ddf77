import { defineApp, noAuth } from '../sdk/index.js';
import { icon } from './icon.js';
import { runJavascript } from './run-javascript.js';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './sandbox.js';
import { createSandboxPool, type SandboxPoolOptions } from './sandbox-pool.js';

export { CodeError, type SandboxLimits } from './sandbox.js';
export type { SandboxPoolOptions } from './sandbox-pool.js';

/**
 * The limits are a parameter so that an instance (or a test) can choose them. Each app has its own
 * pool of worker threads, started by its first run.
 */
export const createCodeApp = (limits: Partial<SandboxLimits> = {}, pool: SandboxPoolOptions = {}) =>
  defineApp({
    key: 'code',
    name: 'Code',
    description: 'Run your own JavaScript in a sandbox.',
    icon,
    primaryColor: '#111827',
    categories: ['utilities'],
    version: 1,
    auth: noAuth(),
    triggers: [],
    actions: [runJavascript({ ...DEFAULT_SANDBOX_LIMITS, ...limits }, createSandboxPool(pool))],
  });

export const codeApp = createCodeApp();
