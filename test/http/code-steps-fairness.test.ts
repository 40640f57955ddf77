import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodeApp } from '../../adapters/apps/code/index.js';
import { builtInApps } from '../../adapters/apps/index.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, sendWebhook } from '../support/engine-flows.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';

/** Long enough that waiting for one of its runs cannot pass for a prompt answer on a busy machine. */
const TIME_LIMIT_MS = 2000;
const codeWith = (source: string) => ({
  appKey: 'code',
  key: 'runJavascript',
  parameters: { inputs: [], codeSnippet: source },
});

describe.each(DIALECTS)('code steps of different flows share the sandbox fairly (%s)', (dialect) => {
  let instance: TestInstance;
  let adminToken: string;
  beforeEach(async () => {
    // Two sandbox workers, as on a two-core machine, whatever this machine has.
    const apps = builtInApps.map((app) =>
      app.key === 'code' ? createCodeApp({ timeoutMs: TIME_LIMIT_MS }, { size: 2 }) : app,
    );
    // The runaway runs still queued at the end are given up after a second rather than the default ten.
    instance = await startTestInstance(dialect, { SHUTDOWN_TIMEOUT_SECONDS: '1' }, { apps });
    adminToken = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  it('tests another user’s code step promptly while one flow’s code loops until its limit, called 30 times', async () => {
    const runaway = await buildFlow(instance, adminToken, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => codeWith('function code() { for (;;) {} }'),
    ]);
    await runaway.call('PATCH', `/flows/${runaway.flowId}/status`, { active: true });

    await enableRegistration(instance, adminToken);
    const bob = await registerAndSignIn(instance, BOB);
    const quick = await buildFlow(instance, bob.token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => codeWith('function code() { return "done" }'),
    ]);
    await sendWebhook(instance, quick.flowId, { hello: 'bob' }); // test data for the step test

    for (let i = 0; i < 30; i++) await sendWebhook(instance, runaway.flowId, { i });
    // Once the first run has met its limit, the others hold the workers or wait for them.
    const failed = () =>
      instance.request('GET', `/executions?flowId=${runaway.flowId}&status=failure`, { token: adminToken });
    await eventually(failed, (res) => res.body.meta.count >= 1, 5 * TIME_LIMIT_MS);

    const started = performance.now();
    const tested = await instance.request('POST', `/steps/${quick.stepIds[1]}/test`, { token: bob.token });
    const elapsed = performance.now() - started;
    expect(tested.status).toBe(200);
    expect(tested.body.data.lastExecutionStep).toMatchObject({ status: 'success', dataOut: { output: 'done' } });
    // Before, Bob's step waited in line behind the 30 runs, two at a time: fifteen time limits. Now
    // a worker is kept free for him; two limits leave room for a loaded machine.
    expect(elapsed).toBeLessThan(2 * TIME_LIMIT_MS);
  }, 60_000);
});
