import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAction, defineApp, fieldsAuth, text } from '../../adapters/apps/sdk/index.js';
import type { Actor } from '../../core/domain/actor.js';
import { createTestDatabase, DIALECTS } from '../../test/support/databases.js';
import { type Conveyor, createConveyor } from './conveyor.js';
import { ConveyorError, unwrap } from './errors.js';
import type { ExecutionEvent } from './run-events.js';
import { createTestConveyor, type TestConveyor } from './testing.js';

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4"/></svg>';

/** An embedder's own app: a connection holds the greeting, an action greets, another always fails. */
const greeter = defineApp({
  key: 'greeter',
  name: 'Greeter',
  description: 'Greets people.',
  icon: ICON,
  primaryColor: '#336699',
  version: 1,
  auth: fieldsAuth({
    fields: { greeting: text({ label: 'Greeting', required: true }) },
    async verify(ctx) {
      return { screenName: `says ${ctx.auth.data.greeting}` };
    },
  }),
  triggers: [],
  actions: [
    defineAction({
      key: 'greet',
      name: 'Greet',
      description: 'Greets someone.',
      arguments: { name: text({ label: 'Name', required: true, acceptsVariables: true }) },
      run: async (ctx) => ({ message: `${String(ctx.auth.data.greeting)}, ${ctx.parameters.name}!` }),
    }),
    defineAction({
      key: 'refuse',
      name: 'Refuse',
      description: 'Always fails.',
      arguments: {},
      run: async () => {
        throw new Error('no greeting today');
      },
    }),
  ],
});

let conveyor: TestConveyor;
let admin: Actor;
let token = '';
const ended: ExecutionEvent[] = [];
const failed: ExecutionEvent[] = [];

const api = async (method: string, path: string, body?: unknown) => {
  const res = await conveyor.fetch(
    new Request(`http://conveyor.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  const text = await res.text();
  return {
    status: res.status,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
};

/** A published flow: the built-in webhook trigger, then one action of the greeter. */
const greeterFlow = async (action: string, connectionId: string, on: Conveyor = conveyor, actor: Actor = admin) => {
  const { useCases } = on;
  const flow = unwrap(await useCases.createFlow(actor, {}));
  const [trigger, step] = flow.steps;
  if (!trigger || !step) throw new Error('a new flow has a trigger and an action');
  unwrap(await useCases.updateStep(actor, trigger.id, { appKey: 'webhook', key: 'catchRawWebhook' }));
  unwrap(
    await useCases.updateStep(actor, step.id, {
      appKey: 'greeter',
      key: action,
      connectionId,
      parameters: action === 'greet' ? { name: `{{step.${trigger.id}.body.name}}` } : {},
    }),
  );
  unwrap(await useCases.publishFlow(actor, flow.id, {}));
  return flow.id;
};

beforeAll(async () => {
  conveyor = await createTestConveyor({ apps: [greeter] });
  conveyor.on('executionFinished', (event) => ended.push(event));
  conveyor.on('executionFailed', (event) => failed.push(event));
  admin = await conveyor.administrator({ email: 'ada@example.com', password: 'a long password', fullName: 'Ada' });
  token = unwrap(
    await conveyor.useCases.signIn({
      email: 'ada@example.com',
      password: 'a long password',
      clientAddress: '127.0.0.1',
    }),
  ).token;
});

afterAll(() => conveyor?.stop());

describe('a custom app passed to createConveyor, over HTTP', () => {
  it('is listed beside the built-in apps, with its icon served where the console looks', async () => {
    const apps = await api('GET', '/api/v1/apps');
    expect(apps.status).toBe(200);
    const keys = apps.body.data.map((app: { key: string }) => app.key);
    expect(keys).toEqual(expect.arrayContaining(['greeter', 'webhook', 'http-request']));
    const listed = apps.body.data.find((app: { key: string }) => app.key === 'greeter');
    expect(listed).toMatchObject({ name: 'Greeter', primaryColor: '#336699', supportsConnections: true });
    const icon = await conveyor.fetch(new Request(`http://conveyor.test${listed.iconUrl}`));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(await icon.text()).toBe(ICON);
  });

  it('is connectable, and a published flow runs it when its webhook is called', async () => {
    const connection = await api('POST', '/api/v1/apps/greeter/connections', { formattedData: { greeting: 'Hello' } });
    expect(connection.status).toBe(201);
    const verified = await api('POST', `/api/v1/connections/${connection.body.data.id}/verify`);
    expect(verified.body.data).toMatchObject({ verified: true });
    const flowId = await greeterFlow('greet', connection.body.data.id);

    const call = await conveyor.fetch(
      new Request(`http://conveyor.test/webhooks/flows/${flowId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Grace' }),
      }),
    );
    expect(call.status).toBe(204);
    const executions = await api('GET', `/api/v1/executions?flowId=${flowId}`);
    const execution = await conveyor.runs.wait(admin, executions.body.data[0].id);
    expect(execution.status).toBe('success');
    expect(execution.steps.at(-1)?.dataOut).toEqual({ message: 'Hello, Grace!' });
  });
});

describe('the typed run API and its events', () => {
  it('triggers a published flow, waits for its run, and tells the listeners it finished', async () => {
    const connection = unwrap(
      await conveyor.useCases.createConnection(admin, 'greeter', { formattedData: { greeting: 'Hi' } }),
    );
    const flowId = await greeterFlow('greet', connection.id);
    const accepted = await conveyor.runs.trigger(flowId, { body: { name: 'Ada' } });
    expect(accepted.active).toBe(true);
    const [executionId] = accepted.executionIds as readonly [string];
    const execution = await conveyor.runs.wait(admin, executionId);
    expect(execution).toMatchObject({ status: 'success', flowId });
    expect(execution.steps.at(-1)?.dataOut).toEqual({ message: 'Hi, Ada!' });
    expect(ended).toContainEqual(
      expect.objectContaining({ executionId, flowId, status: 'success', testRun: false, failed: null }),
    );
    expect(failed.map((event) => event.executionId)).not.toContain(executionId);
  });

  it('tells executionFailed listeners of a run that fails, with the step and the reason', async () => {
    const connection = unwrap(
      await conveyor.useCases.createConnection(admin, 'greeter', { formattedData: { greeting: 'Hi' } }),
    );
    const flowId = await greeterFlow('refuse', connection.id);
    const [executionId] = (await conveyor.runs.trigger(flowId, { body: {} })).executionIds as readonly [string];
    const execution = await conveyor.runs.wait(admin, executionId);
    expect(execution.status).toBe('failure');
    const event = failed.find((e) => e.executionId === executionId);
    expect(event).toMatchObject({ status: 'failure', failed: { error: expect.stringContaining('no greeting today') } });
    expect(ended.map((e) => e.executionId)).toContain(executionId);
  });

  it('throws a use case failure as a ConveyorError with its code', async () => {
    const missing = conveyor.runs.get(admin, '00000000-0000-0000-0000-000000000000');
    await expect(missing).rejects.toBeInstanceOf(ConveyorError);
    await expect(missing).rejects.toMatchObject({ code: 'resource.not_found' });
  });

  it('keeps the mail it would have sent (conveyor/testing)', async () => {
    unwrap(await conveyor.useCases.forgotPassword({ email: 'ada@example.com', clientAddress: '127.0.0.1' }));
    const deadline = Date.now() + 5000;
    while (conveyor.mailer.sent.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(conveyor.mailer.sent).toEqual([expect.objectContaining({ to: 'ada@example.com' })]);
  });

  it('answers the installed administrator again rather than installing a second one', async () => {
    const again = await conveyor.administrator({ email: 'ada@example.com', password: 'ignored', fullName: 'Ada' });
    expect(again.user.id).toBe(admin.user.id);
    expect((await conveyor.actAs()).user.id).toBe(admin.user.id);
  });
});

describe('createConveyor', () => {
  it('offers only the apps given when asked to leave the built-in ones out', async () => {
    const only = await createTestConveyor({ apps: [greeter], builtInApps: false });
    try {
      expect(only.useCases.listApps({}).map((app) => app.key)).toEqual(['greeter']);
    } finally {
      await only.stop();
    }
  });

  it('refuses bad options as the server refuses bad variables, before anything is opened', () => {
    expect(() => createConveyor({ database: 'mysql://nowhere', publicUrl: 'not a url' })).toThrow(
      /DATABASE_URL .*WEB_APP_URL must be a URL/,
    );
  });

  it('asks to be started before it is used, and answers HTTP with 503 meanwhile', async () => {
    const idle = createConveyor({ database: ':memory:' });
    expect(() => idle.useCases).toThrow(/call and await start\(\) first/);
    const res = await idle.fetch(new Request('http://conveyor.test/api/v1/service/info'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ errors: { general: [expect.any(String)] } });
  });
});

describe.each(DIALECTS)('createConveyor on a database that outlives it (%s)', (dialect) => {
  it('runs flows of a custom app, and finds them again after a stop and a new start', async () => {
    const database = await createTestDatabase(dialect, { onDisk: true });
    const directory = mkdtempSync(join(tmpdir(), 'conveyor-library-'));
    const options = {
      database: database.url,
      dataDirectory: directory,
      logLevel: 'silent',
      apps: [greeter],
      environment: { QUEUE: 'local', DATABASE_POOL_SIZE: '4' },
    } as const;
    try {
      const first = createConveyor(options);
      await first.start();
      const heard: string[] = [];
      first.on('executionFinished', (event) => heard.push(event.executionId));
      const owner = await first.administrator({ email: 'own@example.com', password: 'a long password', fullName: 'O' });
      const connection = unwrap(
        await first.useCases.createConnection(owner, 'greeter', { formattedData: { greeting: 'Hey' } }),
      );
      const flowId = await greeterFlow('greet', connection.id, first, owner);
      const [executionId] = (await first.runs.trigger(flowId, { body: { name: 'Lin' } })).executionIds;
      if (!executionId) throw new Error('no run started');
      expect((await first.runs.wait(owner, executionId)).status).toBe('success');
      expect(heard).toContain(executionId);
      await first.stop();
      expect(() => first.useCases).toThrow(/start\(\) first/);

      const second = createConveyor(options);
      await second.start();
      try {
        const again = await second.actAs('own@example.com');
        const execution = await second.runs.get(again, executionId);
        expect(execution.steps.at(-1)?.dataOut).toEqual({ message: 'Hey, Lin!' });
      } finally {
        await second.stop();
      }
    } finally {
      await database.drop();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
