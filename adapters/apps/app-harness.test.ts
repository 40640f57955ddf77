import { describe, expect, it } from 'vitest';
import { runAppAction, runAppTrigger, verifyAppAuth } from './app-harness.js';
import {
  createMemoryStore,
  defineAction,
  defineApp,
  defineTrigger,
  fieldsAuth,
  InvalidParametersError,
  number,
  text,
} from './sdk/index.js';

const counter = defineApp({
  key: 'counter',
  name: 'Counter',
  description: 'Counts.',
  icon: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  primaryColor: '#000000',
  version: 1,
  auth: fieldsAuth({
    fields: { token: text({ label: 'Token', required: true, secret: true }) },
    async verify(ctx) {
      if (ctx.auth.data.token !== 'good') throw new Error('bad token');
      return { screenName: 'counter user' };
    },
  }),
  triggers: [
    defineTrigger({
      key: 'hook',
      name: 'Hook',
      description: 'A webhook.',
      type: 'webhook',
      arguments: {},
      run: async (ctx) => (ctx.webhook ? [{ data: ctx.webhook.body }] : []),
    }),
  ],
  actions: [
    defineAction({
      key: 'add',
      name: 'Add',
      description: 'Adds to the stored count.',
      arguments: { by: number({ label: 'By', required: true, integer: true }) },
      async run(ctx) {
        const count = (Number(await ctx.store.get('count')) || 0) + ctx.parameters.by;
        await ctx.store.set('count', count);
        return { count, token: ctx.auth.data.token, testRun: ctx.execution?.testRun };
      },
    }),
  ],
});

describe('running one step of an app outside a flow (conveyor/testing)', () => {
  it('runs an action with parameters, a connection and a store the test keeps', async () => {
    const store = createMemoryStore();
    await runAppAction(counter, 'add', { parameters: { by: 2 }, auth: { token: 'good' }, store });
    const output = await runAppAction(counter, 'add', { parameters: { by: '3' }, auth: { token: 'good' }, store });
    expect(output).toEqual({ count: 5, token: 'good', testRun: true });
  });

  it('refuses parameters that do not fit the arguments, as a flow would', async () => {
    await expect(runAppAction(counter, 'add', { parameters: {}, auth: { token: 'good' } })).rejects.toBeInstanceOf(
      InvalidParametersError,
    );
  });

  it('runs a webhook trigger with the call it handles', async () => {
    const items = await runAppTrigger(counter, 'hook', {
      auth: { token: 'good' },
      webhook: { method: 'POST', headers: {}, query: {}, body: { n: 1 } },
    });
    expect(items).toEqual([{ data: { n: 1 } }]);
  });

  it('verifies a connection as connecting in the console would', async () => {
    expect(await verifyAppAuth(counter, { token: 'good' })).toMatchObject({ ok: true, screenName: 'counter user' });
    expect(await verifyAppAuth(counter, { token: 'bad' })).toMatchObject({ ok: false });
  });
});
