import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp, fieldsAuth, text } from '../../adapters/apps/sdk/index.js';
import { DIALECTS } from '../support/databases.js';
import { FLOW_TEST_APPS, NOTES_CREDENTIALS } from '../support/flow-apps.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';
import { TEST_ICON } from '../support/test-icon.js';

const keyAuth = () =>
  fieldsAuth({
    fields: { apiKey: text({ label: 'API key', required: true, secret: true }) },
    verify: async () => ({ screenName: 'Key' }),
  });
const common = { icon: TEST_ICON, primaryColor: '#101010', version: 1, triggers: [], actions: [] };

/** A language model app: what an agent's connection must be of. Never asked here. */
const modelApp = defineApp({
  ...common,
  key: 'test-llm',
  name: 'Test LLM',
  description: 'Answers prompts.',
  auth: keyAuth(),
  languageModel: () => ({
    defaultModel: 'small',
    chat: async () => {
      throw new Error('not asked in these tests');
    },
  }),
});

/** An app with tools of its own (an MCP server's). */
const toolboxApp = defineApp({
  ...common,
  key: 'test-toolbox',
  name: 'Test toolbox',
  description: 'Offers tools.',
  auth: keyAuth(),
  toolbox: { list: async () => [], call: async () => null },
});

const CAROL = { email: 'carol@example.com', password: 'carol-password', fullName: 'Carol Admin' };

describe.each(DIALECTS)('agents (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let bob: { id: string; token: string };
  let carol: { id: string; token: string };
  let modelConnection: string;
  let notesConnection: string;
  let toolboxConnection: string;

  const call = (method: string, path: string, body?: unknown, as = token) =>
    instance.request(method, path, { token: as, ...(body !== undefined && { body }) });
  const connect = async (appKey: string, formattedData: Record<string, string>, as = token) => {
    const res = await call('POST', `/apps/${appKey}/connections`, { formattedData }, as);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const create = async (body: Record<string, unknown>, as = token) => {
    const res = await call('POST', '/agents', body, as);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };

  beforeAll(async () => {
    instance = await startTestInstance(dialect, {}, { apps: [...FLOW_TEST_APPS, modelApp, toolboxApp] });
    token = await installAndSignIn(instance);
    await enableRegistration(instance, token);
    bob = await registerAndSignIn(instance, BOB);
    carol = await registerAndSignIn(instance, CAROL);
    const roles = (await call('GET', '/admin/roles')).body.data as { id: string; isAdmin: boolean }[];
    const adminRoleId = roles.find((role) => role.isAdmin)?.id;
    expect((await call('PATCH', `/admin/users/${carol.id}`, { roleId: adminRoleId })).status).toBe(200);
    modelConnection = await connect('test-llm', { apiKey: 'sk-1' });
    notesConnection = await connect('test-notes', NOTES_CREDENTIALS);
    toolboxConnection = await connect('test-toolbox', { apiKey: 'mcp-1' });
  });
  afterAll(() => instance.close());

  it('POST /agents creates one with its settings, and the domain defaults for what is not said', async () => {
    const res = await call('POST', '/agents', {
      name: '  Support  ',
      description: 'Answers tickets',
      instructions: 'Be brief.',
      connectionId: modelConnection.toUpperCase(),
      model: 'large',
      temperature: 0.7,
      limits: { maxIterations: 5 },
      memory: { enabled: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(String),
        name: 'Support',
        description: 'Answers tickets',
        instructions: 'Be brief.',
        connectionId: modelConnection,
        model: 'large',
        temperature: 0.7,
        limits: { maxIterations: 5, maxTokens: 100_000, timeoutSeconds: 300 },
        memory: { enabled: true, maxMessages: 20 },
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      },
      meta: { type: 'Agent', count: 1, isArray: false, currentPage: null, totalPages: null },
    });
    const bare = await create({ name: 'Bare' });
    expect(bare).toMatchObject({
      description: null,
      instructions: null,
      connectionId: null,
      model: null,
      temperature: null,
      limits: { maxIterations: 10, maxTokens: 100_000, timeoutSeconds: 300 },
      memory: { enabled: false, maxMessages: 20 },
    });
    expect((await call('GET', `/agents/${bare.id}`)).body.data).toEqual(bare);
  });

  it('answers 422 with each field at fault', async () => {
    const res = await call('POST', '/agents', {
      description: 3,
      temperature: 2.5,
      limits: { maxIterations: 51, timeoutSeconds: 1.5, maxTokens: 0 },
      memory: { maxMessages: 201, forever: true },
      owner: 'me',
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      errors: {
        name: ['is required.'],
        description: ['must be a string.'],
        temperature: ['must be at most 2.'],
        'limits.maxIterations': ['must be at most 50.'],
        'limits.maxTokens': ['must be at least 1.'],
        'limits.timeoutSeconds': ['must be a whole number.'],
        'memory.maxMessages': ['must be at most 200.'],
        'memory.forever': ['is not allowed.'],
        owner: ['is not allowed.'],
      },
      meta: { type: 'ValidationError' },
    });
  });

  it("takes only the caller's own connection of an app with a language model", async () => {
    const notModel = await call('POST', '/agents', { name: 'A', connectionId: notesConnection });
    expect(notModel.status).toBe(422);
    expect(notModel.body.errors).toEqual({ connectionId: ['is not a connection of an app with a language model.'] });
    const carols = await connect('test-llm', { apiKey: 'sk-2' }, carol.token);
    const foreign = await call('POST', '/agents', { name: 'A', connectionId: carols });
    expect(foreign.body.errors).toEqual({ connectionId: ['is not one of your connections.'] });
    const missing = await call('POST', '/agents', { name: 'A', connectionId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(422);
    const agent = await create({ name: 'A' });
    const patched = await call('PATCH', `/agents/${agent.id}`, { connectionId: carols });
    expect(patched.status).toBe(422);
    expect((await call('GET', `/agents/${agent.id}`)).body.data.connectionId).toBeNull();
  });

  it('PATCH changes what is given: limits and memory in part, null clears', async () => {
    const agent = await create({ name: 'Tuned', model: 'large', temperature: 1, connectionId: modelConnection });
    const res = await call('PATCH', `/agents/${agent.id}`, {
      model: null,
      limits: { timeoutSeconds: 60 },
      memory: { maxMessages: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...agent,
      model: null,
      limits: { ...agent.limits, timeoutSeconds: 60 },
      memory: { ...agent.memory, maxMessages: 5 },
      updatedAt: expect.any(Number),
    });
    expect((await call('PATCH', `/agents/${agent.id}`, { name: ' ' })).body.errors).toEqual({ name: ['is required.'] });
  });

  it('GET /agents lists the caller’s own, newest first, a page at a time', async () => {
    const mine = [];
    for (const name of ['P1', 'P2', 'P3']) {
      mine.push(await create({ name }, carol.token));
      // Newest first is by creation time, kept to the millisecond: two agents made within one have
      // no order between them (their ids are random), and a fast machine makes all three in one.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await call('GET', '/agents?perPage=2', undefined, carol.token);
    expect(first.status).toBe(200);
    expect(first.body.data.map((a: { name: string }) => a.name)).toEqual(['P3', 'P2']);
    expect(first.body.meta).toEqual({ type: 'Agent', count: 3, isArray: true, currentPage: 1, totalPages: 2 });
    const second = await call('GET', '/agents?perPage=2&page=2', undefined, carol.token);
    expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([mine[0]?.id]);
  });

  it("reads another user's agent as not found, whatever their role, and refuses roles without Agent", async () => {
    const carols = await create({ name: 'Private' }, carol.token);
    for (const [method, path, body] of [
      ['GET', `/agents/${carols.id}`],
      ['PATCH', `/agents/${carols.id}`, { name: 'Mine now' }],
      ['DELETE', `/agents/${carols.id}`],
      ['GET', `/agents/${carols.id}/tools`],
      ['POST', `/agents/${carols.id}/tools`, { appKey: 'formatter', actions: ['text'] }],
    ] as const) {
      const res = await call(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    expect((await call('GET', `/agents/${carols.id}`, undefined, carol.token)).body.data.name).toBe('Private');
    const user = await call('GET', '/agents', undefined, bob.token);
    expect(user.status).toBe(403);
    expect((await call('POST', '/agents', { name: 'No' }, bob.token)).status).toBe(403);
  });

  describe('tools', () => {
    it('adds an app’s actions with a connection, replacing the tool of the same app', async () => {
      const agent = await create({ name: 'Tooled' });
      const res = await call('POST', `/agents/${agent.id}/tools`, {
        type: 'app',
        appKey: 'test-notes',
        connectionId: notesConnection,
        actions: ['addNote'],
        flowId: null,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: {
          id: expect.any(String),
          agentId: agent.id,
          type: 'app',
          appKey: 'test-notes',
          connectionId: notesConnection,
          actions: ['addNote'],
          flowId: null,
          askFirst: [],
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        },
        meta: { type: 'AgentTool', count: 1, isArray: false, currentPage: null, totalPages: null },
      });
      const again = await call('POST', `/agents/${agent.id}/tools`, {
        appKey: 'test-notes',
        connectionId: notesConnection,
        actions: ['addNote', 'custom'],
        askFirst: ['custom'],
      });
      expect(again.status).toBe(201);
      expect(again.body.data).toMatchObject({
        id: res.body.data.id,
        actions: ['addNote', 'custom'],
        askFirst: ['custom'],
      });
      const listed = await call('GET', `/agents/${agent.id}/tools`);
      expect(listed.body.data).toEqual([again.body.data]);
      expect(listed.body.meta).toEqual({
        type: 'AgentTool',
        count: 1,
        isArray: true,
        currentPage: null,
        totalPages: null,
      });
    });

    it('refuses what the app, its connection or the actions do not allow', async () => {
      const agent = await create({ name: 'Strict' });
      const carolsNotes = await connect('test-notes', NOTES_CREDENTIALS, carol.token);
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ actions: ['text'] }, { appKey: ['is required.'] }],
        [{ appKey: 'nope', actions: ['x'] }, { appKey: ['is not an app.'] }],
        [{ appKey: 'formatter', actions: [] }, { actions: ['must name at least one action.'] }],
        [{ appKey: 'formatter', actions: ['text', 'fly'] }, { actions: ['are not actions of Formatter: fly.'] }],
        [
          { appKey: 'formatter', actions: ['text'], askFirst: ['number'] },
          { askFirst: ["are not among the tool's actions: number."] },
        ],
        [{ appKey: 'test-notes', actions: ['addNote'] }, { connectionId: ['is required.'] }],
        [
          { appKey: 'test-notes', actions: ['addNote'], connectionId: carolsNotes },
          { connectionId: ['is not one of your connections.'] },
        ],
        [
          { appKey: 'test-notes', actions: ['addNote'], connectionId: modelConnection },
          { connectionId: ['is not a connection of Test notes.'] },
        ],
        [
          { appKey: 'formatter', actions: ['text'], connectionId: notesConnection },
          { connectionId: ['is not used by Formatter.'] },
        ],
        [
          { type: 'mcp', appKey: 'test-notes', connectionId: notesConnection },
          { appKey: ['Test notes offers no tools of its own (it is not an MCP server).'] },
        ],
        [{ type: 'flow' }, { flowId: ['is required.'] }],
        [{ type: 'tool', appKey: 'formatter' }, { type: ['must be one of: app, flow, mcp.'] }],
      ];
      for (const [body, errors] of cases) {
        const res = await call('POST', `/agents/${agent.id}/tools`, body);
        expect({ body, status: res.status, errors: res.body.errors }).toEqual({ body, status: 422, errors });
      }
      expect((await call('GET', `/agents/${agent.id}/tools`)).body.data).toEqual([]);
    });

    it('adds an MCP server’s tools (none named: all) and the caller’s flows, apps first', async () => {
      const agent = await create({ name: 'Mixed' });
      const flow = await call('POST', '/flows');
      const carolsFlow = await call('POST', '/flows', undefined, carol.token);
      const foreignFlow = await call('POST', `/agents/${agent.id}/tools`, {
        type: 'flow',
        flowId: carolsFlow.body.data.id,
      });
      expect(foreignFlow.body.errors).toEqual({ flowId: ['is not one of your flows.'] });
      const flowTool = await call('POST', `/agents/${agent.id}/tools`, {
        type: 'flow',
        flowId: flow.body.data.id,
        askFirst: ['flow'],
      });
      expect(flowTool.status).toBe(201);
      expect(flowTool.body.data).toMatchObject({
        type: 'flow',
        appKey: null,
        connectionId: null,
        actions: [],
        askFirst: ['flow'],
      });
      const mcp = await call('POST', `/agents/${agent.id}/tools`, {
        type: 'mcp',
        appKey: 'test-toolbox',
        connectionId: toolboxConnection,
        askFirst: ['delete_everything'],
      });
      expect(mcp.status).toBe(201);
      expect(mcp.body.data).toMatchObject({
        type: 'mcp',
        appKey: 'test-toolbox',
        actions: [],
        askFirst: ['delete_everything'],
      });
      const listed = (await call('GET', `/agents/${agent.id}/tools`)).body.data;
      expect(listed.map((t: { type: string }) => t.type)).toEqual(['mcp', 'flow']);

      expect((await call('DELETE', `/agents/${agent.id}/tools/${mcp.body.data.id}`)).status).toBe(204);
      expect((await call('DELETE', `/agents/${agent.id}/tools/${mcp.body.data.id}`)).status).toBe(404);
      expect((await call('DELETE', `/agents/${agent.id}/tools/not-an-id`)).status).toBe(404);

      // Deleting the flow takes its tool with it.
      expect((await call('DELETE', `/flows/${flow.body.data.id}`)).status).toBe(204);
      expect((await call('GET', `/agents/${agent.id}/tools`)).body.data).toEqual([]);
    });
  });

  it('DELETE /agents/:agentId removes it from every read', async () => {
    const agent = await create({ name: 'Gone' });
    await call('POST', `/agents/${agent.id}/tools`, { appKey: 'formatter', actions: ['text'] });
    expect((await call('DELETE', `/agents/${agent.id}`)).status).toBe(204);
    expect((await call('GET', `/agents/${agent.id}`)).status).toBe(404);
    expect((await call('GET', `/agents/${agent.id}/tools`)).status).toBe(404);
    expect((await call('DELETE', `/agents/${agent.id}`)).status).toBe(404);
    const names = (await call('GET', '/agents?perPage=100')).body.data.map((a: { id: string }) => a.id);
    expect(names).not.toContain(agent.id);
  });
});
