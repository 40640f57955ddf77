import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { linear } from '../../adapters/apps/linear/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeLinear, LINEAR_KEY, startFakeLinear } from './support/linear-fake.js';

let fake: FakeLinear;
const auth = { apiKey: LINEAR_KEY };
const call = () => ({ auth, baseUrl: fake.vendor.url });

beforeAll(async () => {
  fake = await startFakeLinear();
});
afterAll(() => fake.vendor.close());
afterEach(() => {
  fake.limits.page = 50;
  fake.limits.rateLimited = 0;
  fake.limits.forbidWebhooks = false;
});

const act = (key: string, parameters: Record<string, unknown>) => runAppAction(linear, key, { ...call(), parameters });
const lastOperation = () => fake.operations().at(-1);

describe('linear: connection', () => {
  it('sends the API key as it is (no Bearer) to /graphql and names the viewer', async () => {
    expect(await verifyAppAuth(linear, auth, { baseUrl: fake.vendor.url })).toMatchObject({
      ok: true,
      screenName: 'ada@example.com',
    });
    const sent = fake.vendor.calls('POST /graphql').at(-1);
    expect(sent?.headers.authorization).toBe(LINEAR_KEY);
    expect(sent?.headers['content-type']).toBe('application/json');
  });

  it("refuses a wrong key with Linear's user-facing words", async () => {
    const check = await verifyAppAuth(linear, { apiKey: 'lin_api_wrong' }, { baseUrl: fake.vendor.url });
    expect(check).toEqual({ ok: false, reason: 'Linear: You need to authenticate to access this operation.' });
  });
});

describe('linear: polling triggers', () => {
  it('newIssues: the latest issues by creation, newest first, in a team when one is chosen', async () => {
    const items = await runAppTrigger(linear, 'newIssues', { ...call(), parameters: {} });
    expect(items.map((i) => i.id)).toEqual(['issue-3', 'issue-2', 'issue-1']);
    expect(items[0]?.data).toMatchObject({ identifier: 'ENG-3', title: 'Issue 3' });
    expect(lastOperation()?.variables).toEqual({ orderBy: 'createdAt', filter: null });
    const inTeam = await runAppTrigger(linear, 'newIssues', { ...call(), parameters: { teamId: 'team-eng' } });
    expect(inTeam.map((i) => i.id)).toEqual(['issue-2', 'issue-1']);
    expect(lastOperation()?.variables?.filter).toEqual({ team: { id: { eq: 'team-eng' } } });
  });

  it('updatedIssues: newest change first, one id per change', async () => {
    const items = await runAppTrigger(linear, 'updatedIssues', { ...call(), parameters: {} });
    expect(items.map((i) => i.id)).toEqual([
      'issue-1:2024-05-04T08:00:00.000Z',
      'issue-3:2024-05-03T08:00:00.000Z',
      'issue-2:2024-05-02T08:00:00.000Z',
    ]);
    expect(lastOperation()?.variables?.orderBy).toBe('updatedAt');
  });
});

describe('linear: actions', () => {
  it('createIssue sends only the fields given and answers the issue', async () => {
    const output = await act('createIssue', {
      teamId: 'team-eng',
      title: 'Crash on save',
      priority: '2',
      labelIds: ['label-bug'],
    });
    expect(output).toMatchObject({ identifier: 'ENG-4', title: 'Crash on save', priority: 2 });
    expect(lastOperation()?.query).toMatch(/^mutation\(\$input: IssueCreateInput!\) \{ issueCreate\(input: \$input\)/);
    expect(lastOperation()?.variables).toEqual({
      input: { teamId: 'team-eng', title: 'Crash on save', priority: 2, labelIds: ['label-bug'] },
    });
  });

  it("createIssue fails with Linear's words when it refuses the input", async () => {
    await expect(act('createIssue', { teamId: 'team-gone', title: 'x' })).rejects.toThrow(
      'Linear: The team could not be found.',
    );
  });

  it('updateIssue takes an identifier and changes what is given', async () => {
    const output = await act('updateIssue', { issueId: 'ENG-2', stateId: 'state-done' });
    expect(output).toMatchObject({ identifier: 'ENG-2', stateId: 'state-done' });
    expect(lastOperation()?.variables).toEqual({ id: 'ENG-2', input: { stateId: 'state-done' } });
  });

  it('createIssueComment comments; an unknown issue fails though Linear answers 200', async () => {
    expect(await act('createIssueComment', { issueId: 'ENG-1', body: 'Fixed in **main**' })).toEqual({
      id: 'comment-1',
      body: 'Fixed in **main**',
      issue: { id: 'issue-1', identifier: 'ENG-1' },
    });
    await expect(act('createIssueComment', { issueId: 'ENG-404', body: 'x' })).rejects.toThrow(
      'Linear: Could not find referenced Issue.',
    );
  });

  it('turns RATELIMITED into a retryable failure, after the reset Linear gives', async () => {
    const catalog = createAppCatalog({
      apps: [linear],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_LINEAR: fake.vendor.url },
    });
    try {
      fake.limits.rateLimited = 1;
      const outcome = await createStepRunner(catalog, [linear]).runAction({
        appKey: 'linear',
        key: 'createIssueComment',
        parameters: { issueId: 'ENG-1', body: 'x' },
        connection: { credentials: auth, oauth: null },
        execution: null,
      } as never);
      expect(outcome).toMatchObject({
        kind: 'failure',
        failure: { retryable: true, retryAfterMs: expect.any(Number), message: expect.stringContaining('Too many') },
      });
      const { failure } = outcome as unknown as { failure: { retryAfterMs: number } };
      expect(failure.retryAfterMs).toBeGreaterThanOrEqual(1000);
      expect(failure.retryAfterMs).toBeLessThanOrEqual(2000);
    } finally {
      await catalog.close();
    }
  });
});

describe('linear: instant trigger issueEvent', () => {
  const WEBHOOK_URL = 'https://conveyor.test/webhooks/flows/flow-3';
  type Hook = { id: string; secret: string };
  const delivery = (hook: Hook, body: Record<string, unknown>, signature?: string) => {
    const rawBody = JSON.stringify(body);
    return {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'linear-delivery': 'delivery-1',
        'linear-event': String(body.type),
        'linear-signature': signature ?? createHmac('sha256', hook.secret).update(rawBody).digest('hex'),
      },
      query: {},
      body,
      rawBody,
    };
  };
  const event = (type = 'Issue', webhookTimestamp = Date.now()) => ({
    action: 'create',
    type,
    data: { id: 'issue-9', identifier: 'ENG-9', title: 'New' },
    webhookTimestamp,
  });

  it('makes a webhook for issues with a secret of its own, checks signature and age, and deletes it', async () => {
    const hook = (await registerAppHook(linear, 'issueEvent', {
      ...call(),
      parameters: { teamId: 'team-eng' },
      webhookUrl: WEBHOOK_URL,
    })) as Hook;
    expect(hook).toEqual({ id: 'webhook-1', secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(fake.webhooks[0]?.input).toEqual({
      url: WEBHOOK_URL,
      resourceTypes: ['Issue'],
      label: 'Conveyor',
      secret: hook.secret,
      teamId: 'team-eng',
    });

    const trigger = (webhook: ReturnType<typeof delivery>) =>
      runAppTrigger(linear, 'issueEvent', { ...call(), parameters: {}, hook, webhook });
    const fresh = event();
    expect(await trigger(delivery(hook, fresh))).toEqual([{ id: 'delivery-1', data: fresh }]);
    await expect(trigger(delivery(hook, fresh, 'f'.repeat(64)))).rejects.toMatchObject({
      name: 'WebhookRefusedError',
      message: expect.stringContaining('Linear-Signature'),
    });
    await expect(trigger(delivery(hook, event('Issue', Date.now() - 5 * 60_000)))).rejects.toMatchObject({
      name: 'WebhookRefusedError',
      message: expect.stringContaining('webhookTimestamp'),
    });
    expect(await trigger(delivery(hook, event('Comment')))).toEqual([]);

    await unregisterAppHook(linear, 'issueEvent', { ...call(), parameters: {}, webhookUrl: WEBHOOK_URL, hook });
    expect(fake.webhooks).toEqual([]);
    await unregisterAppHook(linear, 'issueEvent', { ...call(), parameters: {}, webhookUrl: WEBHOOK_URL, hook });
  });

  it('covers all public teams without a team, and fails the publish with the words of Linear', async () => {
    const hook = await registerAppHook(linear, 'issueEvent', { ...call(), parameters: {}, webhookUrl: WEBHOOK_URL });
    expect(fake.webhooks.at(-1)?.input).toMatchObject({ allPublicTeams: true });
    await unregisterAppHook(linear, 'issueEvent', { ...call(), parameters: {}, webhookUrl: WEBHOOK_URL, hook });
    fake.limits.forbidWebhooks = true;
    await expect(
      registerAppHook(linear, 'issueEvent', { ...call(), parameters: {}, webhookUrl: WEBHOOK_URL }),
    ).rejects.toThrow('Linear: You need to be a workspace admin to create webhooks.');
  });
});

describe('linear: dynamic data', () => {
  const load = (key: string, parameters: Record<string, unknown> = {}) =>
    loadAppDynamicData(linear, key, { ...call(), parameters });

  it('follows pageInfo through every page of teams', async () => {
    fake.limits.page = 2;
    expect(await load('listTeams')).toEqual([
      { name: 'Engineering', value: 'team-eng' },
      { name: 'Operations', value: 'team-ops' },
      { name: 'Design', value: 'team-des' },
    ]);
    expect(
      fake
        .operations()
        .slice(-2)
        .map((o) => o.variables?.after),
    ).toEqual([null, '2']);
  });

  it("lists active users, and the chosen team's states and labels", async () => {
    expect((await load('listUsers')).map((o) => o.value)).toEqual(['user-1', 'user-2']);
    expect(lastOperation()?.variables?.filter).toEqual({ active: { eq: true } });
    expect((await load('listWorkflowStates', { teamId: 'team-eng' })).map((o) => o.name)).toEqual(['Todo', 'Done']);
    expect(lastOperation()?.variables?.filter).toEqual({ team: { id: { eq: 'team-eng' } } });
    expect((await load('listLabels', { teamId: 'team-eng' })).map((o) => o.name)).toEqual(['Bug', 'UX']);
    expect(await load('listWorkflowStates')).toEqual([]);
  });
});
