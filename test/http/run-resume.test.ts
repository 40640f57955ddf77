import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../adapters/persistence/open-database.js';
import { createRepositories } from '../../adapters/persistence/repositories/index.js';
import { EXECUTION_JOB } from '../../core/engine/jobs.js';
import type { JobQueue, JobRequest } from '../../ports/job-queue.js';
import type { Repositories } from '../../ports/repositories.js';
import { silentLogger, testSecretBox } from '../contract/persistence-fixture.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals';
const TOKEN = 'a-long-resume-token-0123456789';
const FAR = new Date('2099-01-01T00:00:00.000Z');

/** A queue that keeps what is sent and runs nothing: the run stays as the route left it. */
const keepingQueue = (sent: JobRequest[]): JobQueue => ({
  send: async (request) => {
    sent.push(request);
    return String(sent.length);
  },
  schedule: async () => {},
  unschedule: async () => {},
  work: async () => {},
  depth: async () => ({}),
  prepare: async () => {},
  stop: async () => {},
});

/**
 * A waiting run's resume URL (`/webhooks/runs/:executionId/:token`): what reaches it is kept as a
 * signal for the waiting step and wakes the run; the approve and reject pages answer only by POST.
 * The runs are made through the repositories, beside the instance, as the engine would leave them.
 */
describe.each(DIALECTS)('run resume URLs (%s)', (dialect) => {
  let instance: TestInstance;
  let handle: DatabaseHandle;
  let repos: Repositories;
  let sent: JobRequest[];
  let flowId: string;

  beforeEach(async () => {
    sent = [];
    instance = await startTestInstance(dialect, {}, { queue: keepingQueue(sent) }, { onDisk: true });
    const token = await installAndSignIn(instance);
    ({ flowId } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'wait', key: 'waitForWebhook', parameters: { timeoutMinutes: 60 } }),
    ]));
    handle = openDatabase(instance.database.url, silentLogger);
    repos = createRepositories({ ...handle, secretBox: testSecretBox });
  });
  afterEach(async () => {
    await handle.close();
    await instance.close();
  });

  /** A run that waits until far away (as a step that suspended leaves it), with its resume token. */
  const waitingRun = async () => {
    const id = randomUUID();
    const now = new Date();
    await repos.executions.insert({
      id,
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: null,
      now,
    });
    await repos.executions.wait(id, FAR, 0, now);
    await repos.executions.resumeToken(id, TOKEN);
    return id;
  };
  const send = (path: string, init: RequestInit = {}) => instance.conveyor.app.request(path, init);

  it('keeps a request as a webhook signal, without its credentials, wakes the run and answers 202', async () => {
    const id = await waitingRun();
    const before = Date.now();
    const res = await send(`/webhooks/runs/${id}/${TOKEN}?order=42&tag=a&tag=b`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer secret-of-the-caller',
        cookie: 'session=secret',
        'proxy-authorization': 'Basic c2VjcmV0',
        'x-decision': 'ship',
      },
      body: JSON.stringify({ approved: 'yes', items: [1, 2] }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ executionId: id });
    expect(res.headers.get('content-security-policy')).toBe(SANDBOX);

    const signal = await repos.runSignals.take(id, 'webhook', 'the-waiting-step');
    expect(signal?.payload).toMatchObject({
      method: 'POST',
      query: { order: '42', tag: ['a', 'b'] },
      body: { approved: 'yes', items: [1, 2] },
      headers: { 'x-decision': 'ship', 'content-type': 'application/json' },
    });
    const headers = Object.keys((signal?.payload as { headers: object } | undefined)?.headers ?? {});
    expect(headers).not.toContain('authorization');
    expect(headers).not.toContain('cookie');
    expect(headers).not.toContain('proxy-authorization');
    expect(JSON.stringify(signal)).not.toContain('secret');

    // Woken: due now rather than far away, and sent to the queue.
    const run = await repos.executions.findById(id);
    expect(run?.status).toBe('waiting');
    expect(run?.wakes).toBe(1);
    expect(run?.resumeAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(run?.resumeAt?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(sent).toContainEqual(expect.objectContaining({ name: EXECUTION_JOB, payload: { executionId: id } }));
  });

  it('takes GET, PUT, PATCH and DELETE too, a form body as its fields and text as text', async () => {
    const id = await waitingRun();
    expect((await send(`/webhooks/runs/${id}/${TOKEN}`)).status).toBe(202);
    const form = await send(`/webhooks/runs/${id}/${TOKEN}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=2',
    });
    expect(form.status).toBe(202);
    const text = await send(`/webhooks/runs/${id}/${TOKEN}`, { method: 'PATCH', body: 'plain words' });
    expect(text.status).toBe(202);
    expect((await send(`/webhooks/runs/${id}/${TOKEN}`, { method: 'DELETE' })).status).toBe(202);
    const bodies = [];
    for (const step of ['s1', 's2', 's3', 's4']) {
      const payload = (await repos.runSignals.take(id, 'webhook', step))?.payload as
        | { method: string; body: unknown }
        | undefined;
      bodies.push([payload?.method, payload?.body]);
    }
    expect(bodies).toEqual([
      ['GET', null],
      ['PUT', { a: '1', b: '2' }],
      ['PATCH', 'plain words'],
      ['DELETE', null],
    ]);
  });

  it('answers 404, keeping nothing, for a wrong token, an unknown run, a finished run or no id', async () => {
    const id = await waitingRun();
    const finished = await waitingRun();
    await repos.executions.finish(finished, 'success', new Date(), null);
    for (const path of [
      `/webhooks/runs/${id}/not-the-token`,
      `/webhooks/runs/${randomUUID()}/${TOKEN}`,
      `/webhooks/runs/${finished}/${TOKEN}`,
      `/webhooks/runs/not-an-id/${TOKEN}`,
    ]) {
      const res = await send(path, { method: 'POST', body: '{}' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-security-policy'), path).toBe(SANDBOX);
    }
    expect(await repos.runSignals.take(id, 'webhook', 'step')).toBeNull();
    expect(await repos.runSignals.take(finished, 'webhook', 'step')).toBeNull();
    expect((await repos.executions.findById(id))?.resumeAt).toEqual(FAR);
    expect(sent).toEqual([]);
  });

  it('shows the approve and reject pages without answering: GET decides nothing', async () => {
    const id = await waitingRun();
    for (const answer of ['approve', 'reject']) {
      const page = await send(`/webhooks/runs/${id}/${TOKEN}/${answer}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toBe(SANDBOX);
      const html = await page.text();
      expect(html).toContain('<form method="post">');
      expect(html).toContain(answer === 'approve' ? '>Approve</button>' : '>Reject</button>');
    }
    expect(await repos.runSignals.take(id, 'approval', 'step')).toBeNull();
    expect((await repos.executions.findById(id))?.resumeAt).toEqual(FAR);
    expect(sent).toEqual([]);
  });

  it('keeps an approval or a rejection posted from the page, wakes the run and thanks', async () => {
    const id = await waitingRun();
    const approved = await send(`/webhooks/runs/${id}/${TOKEN}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain('Your approval was recorded.');
    expect((await repos.runSignals.take(id, 'approval', 'first'))?.payload).toEqual({ approved: true });
    expect((await repos.executions.findById(id))?.resumeAt?.getTime()).toBeLessThanOrEqual(Date.now());

    const rejected = await send(`/webhooks/runs/${id}/${TOKEN}/reject`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(rejected.status).toBe(200);
    expect(await rejected.text()).toContain('Your rejection was recorded.');
    expect((await repos.runSignals.take(id, 'approval', 'second'))?.payload).toEqual({ approved: false });
    // A request on the resume URL is not an approval.
    expect(await repos.runSignals.take(id, 'webhook', 'third')).toBeNull();
    expect(sent.filter((job) => job.name === EXECUTION_JOB)).not.toHaveLength(0);
  });

  it('answers a page saying the link leads nowhere, escaping nothing it was given, when it does', async () => {
    const id = await waitingRun();
    const finished = await waitingRun();
    await repos.executions.finish(finished, 'failure', new Date(), null);
    const hostile = encodeURIComponent('<script>alert(1)</script>');
    for (const [method, path] of [
      ['GET', `/webhooks/runs/${id}/${hostile}/approve`],
      ['POST', `/webhooks/runs/${id}/${hostile}/reject`],
      ['GET', `/webhooks/runs/${finished}/${TOKEN}/reject`],
      ['POST', `/webhooks/runs/${finished}/${TOKEN}/approve`],
      ['GET', `/webhooks/runs/${hostile}/${TOKEN}/approve`],
      ['POST', `/webhooks/runs/${randomUUID()}/${TOKEN}/approve`],
    ] as const) {
      const page = await send(path, { method });
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html, path).toContain('This link leads nowhere');
      expect(html, path).not.toContain('<script');
    }
    expect(await repos.runSignals.take(id, 'approval', 'step')).toBeNull();
    expect(sent).toEqual([]);
  });
});
