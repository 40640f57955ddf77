import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/domain/role.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';
import { listen } from '../support/listening.js';

const MCP_PERMISSIONS: readonly Permission[] = [
  { action: 'read', subject: 'McpServer', conditions: [] },
  { action: 'manage', subject: 'McpServer', conditions: [] },
  { action: 'read', subject: 'Flow', conditions: ['isCreator'] },
  { action: 'manage', subject: 'Flow', conditions: ['isCreator'] },
  { action: 'read', subject: 'Connection', conditions: ['isCreator'] },
  { action: 'manage', subject: 'Connection', conditions: ['isCreator'] },
];

const PUBLIC_URL = 'http://hooks.test';

/** An MCP client (the SDK's own) connected to a server's URL on the listening instance. */
const connect = async (url: string) => {
  const client = new Client({ name: 'conveyor-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};

describe.each(DIALECTS)('MCP servers (%s)', (dialect) => {
  let world: FlowWorld;
  let server: { url: string; close(): Promise<void> };
  let token: string;
  /** Where the listening instance serves a server whose `serverUrl` names the public URL. */
  const local = (serverUrl: string) => serverUrl.replace(PUBLIC_URL, server.url);

  beforeAll(async () => {
    world = await startFlowWorld(dialect, { WEBHOOK_URL: PUBLIC_URL, MCP_TOOL_TIMEOUT_SECONDS: '1' });
    server = await listen(world.instance);
    token = world.adminToken;
  });
  afterAll(async () => {
    await server.close();
    await world.close();
  });

  const newServer = async (as = token, name = 'Assistant tools') => world.call('POST', '/mcp-servers', as, { name });

  describe('the resource', () => {
    it('shows the token once, on creation and on rotation, and never again', async () => {
      const created = await newServer();
      expect(created).toMatchObject({ name: 'Assistant tools', token: expect.any(String) });
      expect(created.serverUrl).toBe(`${PUBLIC_URL}/api/v1/mcp/${created.token}`);
      expect(Object.keys(created).sort()).toEqual(['createdAt', 'id', 'name', 'serverUrl', 'token', 'updatedAt']);

      const read = await world.call('GET', `/mcp-servers/${created.id}`, token);
      expect(Object.keys(read).sort()).toEqual(['createdAt', 'id', 'name', 'updatedAt']);
      const listed = await world.call('GET', '/mcp-servers', token);
      expect(listed.find((s: { id: string }) => s.id === created.id)).toEqual(read);
      const renamed = await world.call('PATCH', `/mcp-servers/${created.id}`, token, { name: '  Renamed ' });
      expect(renamed).toMatchObject({ id: created.id, name: 'Renamed' });
      expect(renamed).not.toHaveProperty('token');

      const rotated = await world.call('POST', `/mcp-servers/${created.id}/rotate-token`, token, undefined, 200);
      expect(rotated.token).not.toBe(created.token);
      expect(rotated.serverUrl).toBe(`${PUBLIC_URL}/api/v1/mcp/${rotated.token}`);
    });

    it('refuses a bad name with field errors', async () => {
      const res = await world.instance.request('POST', '/mcp-servers', { token, body: { name: '  ' } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('name');
      const extra = await world.instance.request('POST', '/mcp-servers', { token, body: { name: 'x', token: 'mine' } });
      expect(extra.status).toBe(422);
    });

    it('keeps every server its owner’s: another user, even an administrator, finds none of them', async () => {
      const mine = await newServer();
      const other = await world.userWith(MCP_PERMISSIONS);
      for (const [method, path] of [
        ['GET', `/mcp-servers/${mine.id}`],
        ['PATCH', `/mcp-servers/${mine.id}`],
        ['DELETE', `/mcp-servers/${mine.id}`],
        ['GET', `/mcp-servers/${mine.id}/tools`],
        ['POST', `/mcp-servers/${mine.id}/tools`],
        ['GET', `/mcp-servers/${mine.id}/executions`],
        ['POST', `/mcp-servers/${mine.id}/rotate-token`],
      ] as const) {
        const body = method === 'GET' || method === 'DELETE' ? {} : { body: { name: 'x' } };
        const res = await world.instance.request(method, path, { token: other.token, ...body });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      expect(await world.call('GET', '/mcp-servers', other.token)).toEqual([]);
      // Without the McpServer permission (the User role), a caller is refused outright.
      const bob = await world.instance.request('GET', '/mcp-servers', { token: world.bob.token });
      expect(bob.status).toBe(403);
    });

    it('checks a tool: the app has the action, the connection is the caller’s of that app, the flow starts with mcp.mcpTool', async () => {
      const mine = await newServer();
      const add = (body: unknown, as = token) =>
        world.instance.request('POST', `/mcp-servers/${mine.id}/tools`, { token: as, body });
      expect((await add({ type: 'app', appKey: 'nope', action: 'text' })).body.errors).toHaveProperty('appKey');
      expect((await add({ type: 'app', appKey: 'formatter', action: 'nope' })).body.errors).toHaveProperty('action');
      expect((await add({ type: 'app', appKey: 'test-notes', action: 'addNote' })).body.errors).toHaveProperty(
        'connectionId',
      );
      const bobs = await world.newNotesConnection(world.bob.token);
      const others = await add({ type: 'app', appKey: 'test-notes', action: 'addNote', connectionId: bobs });
      expect(others.status).toBe(422);
      expect(others.body.errors).toHaveProperty('connectionId');
      const plain = await world.newFlow(token);
      expect((await add({ type: 'flow', flowId: plain.id })).body.errors).toHaveProperty('flowId');
      const bobsFlow = await world.newFlow(world.bob.token);
      expect((await add({ type: 'flow', flowId: bobsFlow.id })).body.errors).toHaveProperty('flowId');

      const tool = await add({ type: 'app', appKey: 'formatter', action: 'text' });
      expect(tool.status).toBe(201);
      expect(tool.body.data).toEqual({
        id: expect.any(String),
        mcpServerId: mine.id,
        type: 'app',
        flowId: null,
        connectionId: null,
        appKey: 'formatter',
        action: 'text',
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      });
      const again = await add({ type: 'app', appKey: 'formatter', action: 'text' });
      expect(again.status).toBe(422);
      expect(again.body.errors).toHaveProperty('action');
      expect(await world.call('GET', `/mcp-servers/${mine.id}/tools`, token)).toEqual([tool.body.data]);
      await world.call('DELETE', `/mcp-servers/${mine.id}/tools/${tool.body.data.id}`, token);
      expect(await world.call('GET', `/mcp-servers/${mine.id}/tools`, token)).toEqual([]);
    });
  });

  describe('the MCP endpoint, with the SDK’s client', () => {
    it('lists and calls an app’s action and flows, records the calls, and stops at a rotated token', async () => {
      const created = await newServer();
      const tools = `/mcp-servers/${created.id}/tools`;
      await world.call('POST', tools, token, { type: 'app', appKey: 'formatter', action: 'text' });

      const answering = await buildFlow(
        world.instance,
        token,
        {
          appKey: 'mcp',
          key: 'mcpTool',
          parameters: {
            toolName: 'greet',
            toolDescription: 'Greets someone.',
            inputSchema: '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}',
          },
        },
        [([t]) => ({ appKey: 'mcp', key: 'respondWith', parameters: { output: `Hello, {{step.${t}.name}}!` } })],
      );
      await answering.call('PATCH', `/flows/${answering.flowId}/status`, { active: true });
      await world.call('POST', tools, token, { type: 'flow', flowId: answering.flowId });

      const slow = await buildFlow(
        world.instance,
        token,
        {
          appKey: 'mcp',
          key: 'mcpTool',
          parameters: { toolName: 'slow', toolDescription: 'Takes a while.', inputSchema: '{oops' },
        },
        [
          () => ({ appKey: 'delay', key: 'delayFor', parameters: { delayForUnit: 'minutes', delayForValue: 5 } }),
          () => ({ appKey: 'mcp', key: 'respondWith', parameters: { output: 'done' } }),
        ],
      );
      await slow.call('PATCH', `/flows/${slow.flowId}/status`, { active: true });
      await world.call('POST', tools, token, { type: 'flow', flowId: slow.flowId });

      // A flow tool whose flow is not published is not served.
      const draft = await buildFlow(
        world.instance,
        token,
        { appKey: 'mcp', key: 'mcpTool', parameters: { toolName: 'draft', toolDescription: 'Not yet.' } },
        [() => ({ appKey: 'mcp', key: 'respondWith', parameters: { output: 'x' } })],
      );
      await world.call('POST', tools, token, { type: 'flow', flowId: draft.flowId });

      const client = await connect(local(created.serverUrl));
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(['formatter_text', 'greet', 'slow']);
      const [formatter, greet, slowTool] = listed.tools;
      expect(formatter?.inputSchema).toMatchObject({ type: 'object', required: ['transform'] });
      expect(greet).toMatchObject({ description: 'Greets someone.', inputSchema: { required: ['name'] } });
      expect(slowTool?.inputSchema).toEqual({ type: 'object', properties: {} });

      const upper = await client.callTool({
        name: 'formatter_text',
        arguments: { transform: 'uppercase', input: 'shout' },
      });
      expect(upper.isError).toBeFalsy();
      expect(upper.content).toEqual([{ type: 'text', text: JSON.stringify({ output: 'SHOUT' }, null, 2) }]);

      const failing = await client.callTool({ name: 'formatter_text', arguments: { transform: 'nothing' } });
      expect(failing.isError).toBe(true);

      const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(greeted).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      expect(greeted.isError).toBeFalsy();

      const started = Date.now();
      const pending = await client.callTool({ name: 'slow', arguments: {} });
      expect(Date.now() - started).toBeLessThan(5000);
      const executionId = (pending.structuredContent as { executionId: string }).executionId;
      expect(pending.structuredContent).toEqual({ executionId, status: 'running' });
      const run = await world.call('GET', `/executions/${executionId}`, token);
      expect(run).toMatchObject({ flowId: slow.flowId, status: 'waiting' });

      await expect(client.callTool({ name: 'draft', arguments: {} })).rejects.toThrow(/no tool named draft/);

      const calls = await world.instance.request('GET', `/mcp-servers/${created.id}/executions?perPage=10`, { token });
      expect(calls.status).toBe(200);
      expect(calls.body.meta).toMatchObject({ type: 'McpToolExecution', count: 4, currentPage: 1 });
      const byStatus = calls.body.data.map((c: { status: string }) => c.status);
      expect(byStatus).toEqual(['running', 'success', 'failure', 'success']);
      expect(calls.body.data[0]).toMatchObject({ executionId, dataIn: {}, dataOut: null });
      expect(calls.body.data[1]).toMatchObject({ dataIn: { name: 'Ada' }, dataOut: 'Hello, Ada!', errorDetails: null });
      expect(calls.body.data[2].errorDetails).toMatchObject({ message: expect.any(String) });
      expect(calls.body.data[3]).toMatchObject({
        dataIn: { transform: 'uppercase', input: 'shout' },
        dataOut: { output: 'SHOUT' },
        executionId: null,
      });

      // A new token: the old one opens nothing from the next request on.
      const rotated = await world.call('POST', `/mcp-servers/${created.id}/rotate-token`, token, undefined, 200);
      await expect(client.listTools()).rejects.toThrow();
      await client.close();
      const fresh = await connect(local(rotated.serverUrl));
      expect((await fresh.listTools()).tools).toHaveLength(3);
      await fresh.close();
    });

    it('answers an unknown token 404 without detail, for every method', async () => {
      for (const method of ['POST', 'GET', 'DELETE']) {
        const res = await fetch(`${server.url}/api/v1/mcp/not-a-token`, {
          method,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          ...(method === 'POST' && { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }),
        });
        expect(res.status, method).toBe(404);
      }
      await expect(connect(`${server.url}/api/v1/mcp/not-a-token`)).rejects.toThrow();
    });

    it('answers GET and DELETE with a valid token 405: the endpoint keeps no sessions', async () => {
      const created = await newServer();
      const res = await fetch(local(created.serverUrl), { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });
  });
});
