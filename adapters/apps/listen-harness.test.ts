import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { listenWithApp } from './app-harness.js';
import { defineApp, defineTrigger, noAuth, number } from './sdk/index.js';

/** A listener that emits `count` numbered messages, records what was acknowledged, then waits to be closed. */
const acked: number[] = [];
const ticker = defineApp({
  key: 'ticker',
  name: 'Ticker',
  description: 'Ticks.',
  icon: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  primaryColor: '#000000',
  version: 1,
  auth: noAuth(),
  triggers: [
    defineTrigger({
      key: 'tick',
      name: 'Tick',
      description: 'Ticks.',
      type: 'listener',
      arguments: { count: number({ label: 'Count', required: true }), failAfter: number({ label: 'Fail' }) },
      run: async () => [{ data: { n: 0 } }],
      async listen(ctx) {
        ctx.subscribed();
        for (let n = 1; n <= ctx.parameters.count; n++) {
          try {
            await ctx.emit({ id: String(n), data: { n } });
            acked.push(n);
          } catch {
            // not acknowledged: the server would deliver it again
          }
        }
        if (ctx.parameters.failAfter !== undefined) throw new Error('connection lost');
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      },
    }),
  ],
  actions: [],
});

describe('listenWithApp', () => {
  it('collects what the listener emits and closes it when stopped', async () => {
    acked.length = 0;
    const probe = listenWithApp(ticker, 'tick', { parameters: { count: 3 } });
    await probe.subscribed();
    expect((await probe.waitForMessages(3)).map((m) => m.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await probe.stop()).toBeNull();
    expect(acked).toEqual([1, 2, 3]);
  });

  it('lets a test refuse or hold a message, which the listener then does not acknowledge', async () => {
    acked.length = 0;
    const probe = listenWithApp(ticker, 'tick', {
      parameters: { count: 3 },
      accept: async (message) => {
        if (message.id === '2') throw new Error('database away');
        await sleep(5);
      },
    });
    await probe.waitForMessages(2);
    expect(probe.messages.map((m) => m.id)).toEqual(['1', '3']);
    expect(acked).toEqual([1, 3]);
    await probe.stop();
  });

  it('answers what listen threw when the connection breaks, and validates parameters first', async () => {
    const broken = listenWithApp(ticker, 'tick', { parameters: { count: 1, failAfter: 1 } });
    expect((await broken.ended)?.message).toBe('connection lost');
    await expect(broken.waitForMessages(2, 100)).rejects.toThrow('listen ended before 2 messages');
    const invalid = listenWithApp(ticker, 'tick', { parameters: {} });
    expect((await invalid.ended)?.name).toBe('InvalidParametersError');
  });

  it('refuses a listener trigger without listen, and listen on another kind', () => {
    expect(() =>
      defineTrigger({ key: 'x', name: 'X', description: 'X', type: 'listener', arguments: {}, run: async () => [] }),
    ).toThrow('a listener trigger, and only one, defines listen()');
    expect(() =>
      defineTrigger({
        key: 'x',
        name: 'X',
        description: 'X',
        type: 'polling',
        arguments: {},
        run: async () => [],
        listen: async () => {},
      }),
    ).toThrow('a listener trigger, and only one, defines listen()');
  });
});
