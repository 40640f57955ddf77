import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  callAppTool,
  listAppTools,
  loadAppDynamicData,
  loadAppDynamicFields,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { builtInAppsWith, createAppCatalog } from '../../adapters/apps/index.js';
import { createMcpClientApp, mcpClient, STDIO_REFUSED } from '../../adapters/apps/mcp-client/index.js';
import { InvalidParametersError } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { describeAppContract } from './app-contract.js';
import { type McpHttpServer, startMcpHttpServer } from './support/mcp-servers.js';

describeAppContract(mcpClient);

const API_KEY = 'k3y-for-the-tools';

/** A port nothing listens on. */
const closedPort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};

const refusedUrl = async () => `http://127.0.0.1:${await closedPort()}/mcp`;

describe('mcp-client: connection fields', () => {
  const catalog = createAppCatalog({ apps: [mcpClient], allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('default to HTTP with an Authorization header, and check the URL and header name', () => {
    expect(catalog.parseAuthFields('mcp-client', { serverUrl: 'https://mcp.example.com/mcp' })).toEqual({
      ok: true,
      value: { transport: 'http', serverUrl: 'https://mcp.example.com/mcp', headerName: 'Authorization' },
    });
    expect(
      catalog.parseAuthFields('mcp-client', { transport: 'ftp', serverUrl: 'ftp://x', headerName: 'X Key' }),
    ).toEqual({
      ok: false,
      fields: {
        transport: ['must be one of: http, stdio.'],
        serverUrl: ['must be an http or https URL.'],
        headerName: ['must be an HTTP header name.'],
      },
    });
  });

  it('keep the header value secret', () => {
    const value = catalog.find('mcp-client')?.auth.fields.find((f) => f.key === 'headerValue');
    expect(value?.secret).toBe(true);
  });

  it('offer the toolbox capability, in the AI and developer tools categories', () => {
    expect(catalog.find('mcp-client')).toMatchObject({
      capabilities: ['toolbox'],
      categories: ['ai', 'developer-tools'],
    });
  });
});

describe('mcp-client against a Streamable HTTP server', () => {
  let server: McpHttpServer;
  let auth: Record<string, unknown>;

  beforeAll(async () => {
    server = await startMcpHttpServer({ requireHeader: ['x-api-key', API_KEY] });
    auth = { transport: 'http', serverUrl: server.url, headerName: 'X-Api-Key', headerValue: API_KEY };
  });
  afterAll(() => server.close());
  // Every use opens its own session and ends it: none is left on the server after a test.
  afterEach(() => expect(server.openSessions()).toBe(0));

  describe('verification', () => {
    it('connects with the header and lists the tools', async () => {
      expect(await verifyAppAuth(mcpClient, auth)).toMatchObject({
        ok: true,
        screenName: `example-tools (127.0.0.1:${server.port})`,
      });
    });

    it('says the server refused a wrong header value, without repeating it', async () => {
      const check = await verifyAppAuth(mcpClient, { ...auth, headerValue: 'wrong-value' });
      expect(check).toEqual({
        ok: false,
        reason:
          'The MCP server refused the connection (HTTP 401): Error POSTing to endpoint: a valid API key is required',
      });
    });

    it('says when nothing answers at the address', async () => {
      const check = await verifyAppAuth(mcpClient, { ...auth, serverUrl: await refusedUrl() });
      expect(check).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^Could not reach the MCP server: .*ECONNREFUSED/),
      });
    });

    it('says when the address is not an MCP server', async () => {
      const check = await verifyAppAuth(mcpClient, { ...auth, serverUrl: server.url.replace('/mcp', '/other') });
      expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('(HTTP 404)') });
    });

    it('is refused a private address unless the instance allows private networks', async () => {
      expect(await verifyAppAuth(mcpClient, auth, { allowPrivateNetworks: false })).toEqual({
        ok: false,
        reason:
          'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.',
      });
    });

    it('needs a server URL for HTTP', async () => {
      expect(await verifyAppAuth(mcpClient, { transport: 'http' })).toEqual({
        ok: false,
        reason: 'The connection names no server URL.',
      });
    });
  });

  describe('dynamic data and fields', () => {
    it("lists the server's tools for the tool dropdown", async () => {
      expect(await loadAppDynamicData(mcpClient, 'listTools', { auth })).toEqual([
        { name: 'Echo', value: 'echo' },
        { name: 'add', value: 'add' },
        { name: 'fail', value: 'fail' },
        { name: 'files.read', value: 'files.read' },
        { name: 'configure', value: 'configure' },
        { name: 'slow', value: 'slow' },
      ]);
    });

    it("turns the selected tool's input schema into fields, typed and required as it says", async () => {
      const fields = await loadAppDynamicFields(mcpClient, 'listToolFields', {
        auth,
        parameters: { toolName: 'echo' },
      });
      expect(fields).toEqual([
        {
          key: 'text',
          label: 'text',
          type: 'string',
          required: true,
          description: 'What to repeat.',
          acceptsVariables: true,
        },
        { key: 'times', label: 'times', type: 'number', required: false, acceptsVariables: true },
        { key: 'loud', label: 'loud', type: 'boolean', required: false, acceptsVariables: true },
        {
          key: 'mood',
          label: 'mood',
          type: 'dropdown',
          required: false,
          acceptsVariables: true,
          options: [
            { label: 'calm', value: 'calm' },
            { label: 'glad', value: 'glad' },
          ],
        },
        { key: 'meta', label: 'meta', type: 'json', required: false, acceptsVariables: true },
      ]);
    });

    it("leaves a property named as the step's own argument to the raw arguments", async () => {
      const fields = await loadAppDynamicFields(mcpClient, 'listToolFields', {
        auth,
        parameters: { toolName: 'configure' },
      });
      expect(fields.map((f) => f.key)).toEqual(['mode']);
    });

    it('adds no field before a tool is chosen, or for a tool the server lacks', async () => {
      expect(await loadAppDynamicFields(mcpClient, 'listToolFields', { auth, parameters: {} })).toEqual([]);
      expect(
        await loadAppDynamicFields(mcpClient, 'listToolFields', { auth, parameters: { toolName: 'gone' } }),
      ).toEqual([]);
    });
  });

  describe('action callTool', () => {
    it("sends the fields as the tool's arguments, typed, and answers the tool's result", async () => {
      const output = await runAppAction(mcpClient, 'callTool', {
        auth,
        parameters: { toolName: 'echo', text: 'hi', times: '2', loud: 'true', mood: 'glad', meta: '{"tag":"x"}' },
      });
      expect(output).toEqual({
        content: [{ type: 'text', text: 'HIHI' }],
        structuredContent: { said: 'HIHI', mood: 'glad', meta: { tag: 'x' } },
        isError: false,
      });
    });

    it('answers structured content a tool declares an output schema for', async () => {
      const output = await runAppAction(mcpClient, 'callTool', { auth, parameters: { toolName: 'add', a: 2, b: '3' } });
      expect(output).toEqual({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 }, isError: false });
    });

    it('takes raw arguments, which fill required properties and yield to the fields', async () => {
      const configured = await runAppAction(mcpClient, 'callTool', {
        auth,
        parameters: { toolName: 'configure', arguments: '{"arguments":["a","b"],"mode":"raw"}' },
      });
      expect(configured).toMatchObject({ content: [{ type: 'text', text: '{"arguments":["a","b"],"mode":"raw"}' }] });
      const echoed = await runAppAction(mcpClient, 'callTool', {
        auth,
        parameters: { toolName: 'echo', arguments: { text: 'raw', times: 3 }, text: 'field' },
      });
      expect(echoed).toMatchObject({ content: [{ type: 'text', text: 'fieldfieldfield' }] });
    });

    it('refuses a missing required field, and raw arguments that are not an object', async () => {
      const missing = runAppAction(mcpClient, 'callTool', { auth, parameters: { toolName: 'echo', times: 'x' } });
      await expect(missing).rejects.toThrow(InvalidParametersError);
      await expect(missing).rejects.toMatchObject({
        fields: { text: ['is required.'], times: ['must be a number.'] },
      });
      await expect(
        runAppAction(mcpClient, 'callTool', { auth, parameters: { toolName: 'echo', arguments: '[1]' } }),
      ).rejects.toMatchObject({ fields: { arguments: ['must be a JSON object.'] } });
    });

    it("fails the step with the tool's text when it answers isError, for good", async () => {
      expect(await runAppActionOutcome(mcpClient, 'callTool', { auth, parameters: { toolName: 'fail' } })).toEqual({
        kind: 'failure',
        failure: { message: 'The tool fail failed: the disk is full', retryable: false },
      });
    });

    it('fails for good on a tool the server does not offer', async () => {
      expect(await runAppActionOutcome(mcpClient, 'callTool', { auth, parameters: { toolName: 'gone' } })).toEqual({
        kind: 'failure',
        failure: { message: 'The MCP server offers no tool named "gone".', retryable: false },
      });
    });

    it('fails to be retried when the server cannot be reached', async () => {
      const outcome = await runAppActionOutcome(mcpClient, 'callTool', {
        auth: { ...auth, serverUrl: await refusedUrl() },
        parameters: { toolName: 'echo', text: 'hi' },
      });
      expect(outcome).toMatchObject({
        kind: 'failure',
        failure: { retryable: true, message: expect.stringContaining('ECONNREFUSED') },
      });
    });

    it('gives up on a call past its time limit, to be retried, and still ends the session', async () => {
      const hasty = createMcpClientApp({ timeouts: { callMs: 200 } });
      const started = Date.now();
      const outcome = await runAppActionOutcome(hasty, 'callTool', { auth, parameters: { toolName: 'slow' } });
      expect(outcome).toMatchObject({
        kind: 'failure',
        failure: { retryable: true, message: 'The MCP server did not answer within 0.2 s.' },
      });
      expect(Date.now() - started).toBeLessThan(1_900);
    });
  });

  describe('toolbox', () => {
    it('lists the tools for an agent, under names the models accept', async () => {
      const tools = await listAppTools(mcpClient, { auth });
      expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'fail', 'configure', 'slow', 'files_read']);
      expect(tools[1]).toEqual({
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        }),
      });
    });

    it('calls a tool by the name it listed, and hands its failure to the agent as an answer', async () => {
      expect(await callAppTool(mcpClient, 'files_read', { path: '/notes.txt' }, { auth })).toEqual({
        content: [{ type: 'text', text: 'contents of /notes.txt' }],
        isError: false,
      });
      expect(await callAppTool(mcpClient, 'fail', {}, { auth })).toEqual({
        content: [{ type: 'text', text: 'the disk is full' }],
        isError: true,
      });
      await expect(callAppTool(mcpClient, 'gone', {}, { auth })).rejects.toThrow(
        'The MCP server offers no tool named "gone".',
      );
    });

    it('serves the step runner, as the agent step reaches it', async () => {
      const catalog = createAppCatalog({
        apps: [mcpClient],
        allowPrivateNetworks: true,
        logger: new CapturingLogger(),
      });
      const runner = createStepRunner(catalog, [mcpClient]);
      const request = { appKey: 'mcp-client', connection: { credentials: auth, oauth: null }, execution: null };
      try {
        const listed = await runner.listTools(request);
        expect(listed).toMatchObject({
          kind: 'success',
          tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]),
        });
        expect(await runner.callTool({ ...request, name: 'add', arguments: { a: 1, b: 1 } })).toEqual({
          kind: 'success',
          output: { content: [{ type: 'text', text: '2' }], structuredContent: { sum: 2 }, isError: false },
        });
        const unreachable = {
          ...request,
          connection: { credentials: { ...auth, serverUrl: await refusedUrl() }, oauth: null },
        };
        expect(await runner.listTools(unreachable)).toMatchObject({ kind: 'failure', failure: { retryable: true } });
      } finally {
        await catalog.close();
      }
    });

    it('is refused a private address unless the instance allows private networks, for good', async () => {
      const catalog = createAppCatalog({
        apps: [mcpClient],
        allowPrivateNetworks: false,
        logger: new CapturingLogger(),
      });
      const runner = createStepRunner(catalog, [mcpClient]);
      try {
        const outcome = await runner.listTools({
          appKey: 'mcp-client',
          connection: { credentials: auth, oauth: null },
          execution: null,
        });
        expect(outcome).toMatchObject({
          kind: 'failure',
          failure: { retryable: false, message: expect.stringContaining('ALLOW_PRIVATE_NETWORKS=true') },
        });
      } finally {
        await catalog.close();
      }
    });
  });
});

describe('mcp-client against a server of the 2024 HTTP+SSE transport', () => {
  let server: McpHttpServer;
  beforeAll(async () => {
    server = await startMcpHttpServer({ legacySse: true });
  });
  afterAll(() => server.close());

  it('falls back to SSE, and closes the stream after', async () => {
    const auth = { transport: 'http', serverUrl: server.url };
    expect(await verifyAppAuth(mcpClient, auth)).toMatchObject({
      ok: true,
      screenName: expect.stringContaining('example-tools'),
    });
    expect(
      await runAppAction(mcpClient, 'callTool', { auth, parameters: { toolName: 'echo', text: 'old' } }),
    ).toMatchObject({
      content: [{ type: 'text', text: 'old' }],
    });
    for (let i = 0; i < 50 && server.openSessions() > 0; i++) await sleep(20);
    expect(server.openSessions()).toBe(0);
  });
});

describe('mcp-client over stdio', () => {
  const script = fileURLToPath(new URL('./support/mcp-stdio-server.mjs', import.meta.url));
  const folder = mkdtempSync(join(tmpdir(), 'conveyor-mcp-'));
  const pidFile = join(folder, 'pid');
  const auth = { transport: 'stdio', command: process.execPath, args: [script, pidFile].join('\n') };
  const allowed = builtInAppsWith({ mcpStdioAllowed: true }).find((app) => app.key === 'mcp-client');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const isRunning = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('is refused unless the instance allows commands, and runs nothing', async () => {
    const defaultApp = builtInAppsWith({}).find((app) => app.key === 'mcp-client');
    expect(defaultApp).toBe(mcpClient);
    expect(await verifyAppAuth(mcpClient, auth)).toEqual({ ok: false, reason: STDIO_REFUSED });
    expect(
      await runAppActionOutcome(mcpClient, 'callTool', { auth, parameters: { toolName: 'echo', text: 'x' } }),
    ).toEqual({
      kind: 'failure',
      failure: { message: STDIO_REFUSED, retryable: false },
    });
    await expect(listAppTools(mcpClient, { auth })).rejects.toThrow(STDIO_REFUSED);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('runs the command where allowed, calls its tools and ends the process after', async () => {
    if (!allowed) throw new Error('no mcp-client app');
    expect(await verifyAppAuth(allowed, auth)).toMatchObject({
      ok: true,
      screenName: `example-tools (${process.execPath})`,
    });
    expect(
      await runAppAction(allowed, 'callTool', { auth, parameters: { toolName: 'shout', text: 'piped' } }),
    ).toMatchObject({ content: [{ type: 'text', text: 'PIPED' }] });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isRunning(pid)).toBe(false);
    expect(await callAppTool(allowed, 'shout', { text: 'hi' }, { auth })).toEqual({
      content: [{ type: 'text', text: 'HI' }],
      isError: false,
    });
    expect(isRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('says what a command that ended printed on its standard error', async () => {
    if (!allowed) throw new Error('no mcp-client app');
    const quitter = ['-e', "console.error('TOKEN is not set'); process.exit(1)"].join('\n');
    const check = await verifyAppAuth(allowed, { transport: 'stdio', command: process.execPath, args: quitter });
    expect(check).toMatchObject({
      ok: false,
      reason: 'The MCP server closed the connection. The server said: TOKEN is not set',
    });
  });

  it('says why a command could not start', async () => {
    if (!allowed) throw new Error('no mcp-client app');
    const check = await verifyAppAuth(allowed, { transport: 'stdio', command: join(folder, 'no-such-server') });
    expect(check).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Could not start the MCP server's command: spawn .*no-such-server ENOENT$/),
    });
  });
});
