import { afterAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import type { StepStore } from '../../ports/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
const runner = createStepRunner(catalog, builtInApps);
afterAll(() => catalog.close());

const memoryStore = (): StepStore & { values: Map<string, unknown> } => {
  const values = new Map<string, unknown>();
  return { values, get: async (key) => values.get(key), set: async (key, value) => void values.set(key, value) };
};

const PARAMETERS = { toolName: 'greet', toolDescription: 'Greets someone.', inputSchema: '' };

/** The MCP endpoint starts the trigger's runs with the call's arguments (`ctx.webhook`); the editor tests it without. */
const trigger = (store: StepStore, body?: unknown) =>
  runner.runTrigger({
    appKey: 'mcp',
    key: 'mcpTool',
    parameters: PARAMETERS,
    connection: null,
    store,
    execution: null,
    webhook: body === undefined ? null : { method: 'CALL', headers: {}, query: {}, body },
  });

describe('mcp', () => {
  it('outputs the call’s arguments, and answers the last ones when tested without a call', async () => {
    const store = memoryStore();
    expect(await trigger(store)).toEqual({ kind: 'success', items: [] });
    expect(await trigger(store, { name: 'Ada' })).toEqual({ kind: 'success', items: [{ data: { name: 'Ada' } }] });
    expect(await trigger(store)).toEqual({ kind: 'success', items: [{ data: { name: 'Ada' } }] });
    // Arguments that are not an object start a run with none.
    expect(await trigger(store, ['x'])).toEqual({ kind: 'success', items: [{ data: {} }] });
    expect([...store.values.keys()]).toEqual(['mcp:lastCall']);
  });

  it('has Automatisch’s keys, no trigger type (the engine starts it) and the ai category', () => {
    const app = catalog.find('mcp');
    expect(app?.categories).toEqual(['ai']);
    expect(app?.auth.kind).toBe('none');
    const [tool] = app?.triggers ?? [];
    expect(tool?.key).toBe('mcpTool');
    expect(tool?.type).toBeUndefined();
    expect(tool?.arguments.map((a) => [a.key, a.required])).toEqual([
      ['toolName', true],
      ['toolDescription', true],
      ['inputSchema', false],
    ]);
    expect(runner.scheduleOf('mcp', 'mcpTool', PARAMETERS)).toBeNull();
  });

  it('respondWith outputs what the call answers', async () => {
    const outcome = await runner.runAction({
      appKey: 'mcp',
      key: 'respondWith',
      parameters: { output: 'Hello, Ada!' },
      connection: null,
      store: memoryStore(),
      execution: null,
    });
    expect(outcome).toEqual({ kind: 'success', output: { output: 'Hello, Ada!' } });
    const missing = await runner.runAction({
      appKey: 'mcp',
      key: 'respondWith',
      parameters: {},
      connection: null,
      store: memoryStore(),
      execution: null,
    });
    expect(missing.kind).toBe('failure');
  });
});
