import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../adapters/persistence/open-database.js';
import { createRepositories } from '../../adapters/persistence/repositories/index.js';
import type { Repositories } from '../../ports/repositories.js';
import { silentLogger, testSecretBox } from '../contract/persistence-fixture.js';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { eventually } from '../support/engine-flows.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * The console's pages for issue 24 in Chromium: agents (settings, tools), MCP servers (the token
 * shown once, tools, the client's configuration) and an execution's step calls with their approval.
 */
const PUBLIC_URL = 'http://hooks.test';
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the AI console suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The AI console suite is SKIPPED. ***\n\n`);
}

/** An MCP client (the SDK's own) connected to an address. */
const connect = async (url: string) => {
  const client = new Client({ name: 'console-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};

describe.skipIf('missing' in browserAvailable)('the AI pages of the console in Chromium', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  let instance: TestInstance;
  let handle: DatabaseHandle;
  let repos: Repositories;
  let token: string;
  let base: string;
  let browser: Browser;
  let page: Page;

  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await instance.request(method, path, { token, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return (res.body as { data: unknown } | null)?.data;
  };
  /** Where the in-process instance serves an address made with the public URL. */
  const local = (url: string) => url.replace(PUBLIC_URL, base);
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `ai-${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const assets = mkdtempSync(join(tmpdir(), 'conveyor-ai-console-'));
    cleanups.push(() => rmSync(assets, { recursive: true, force: true }));
    await buildConsole(assets);
    instance = await startTestInstance(
      'sqlite',
      { WEB_CONSOLE_DIR: assets, WEBHOOK_URL: PUBLIC_URL },
      {},
      { onDisk: true },
    );
    cleanups.push(() => instance.close());
    handle = openDatabase(instance.database.url, silentLogger);
    cleanups.push(() => handle.close());
    repos = createRepositories({ ...handle, secretBox: testSecretBox });
    token = await installAndSignIn(instance);
    const served = await listen(instance);
    cleanups.push(() => served.close());
    base = served.url;

    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("shows an agent step's calls in the execution, and a waiting one's approval", async () => {
    // A run with an action step; its calls are recorded as an agent step records them.
    const flow = await api('POST', '/flows');
    await api('PATCH', `/flows/${flow.id}`, { name: 'Asks the agent' });
    const [hook, action] = flow.steps;
    await api('PATCH', `/steps/${hook.id}`, { appKey: 'webhook', key: 'catchRawWebhook' });
    await api('PATCH', `/steps/${action.id}`, {
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input: 'hello' },
    });
    await api('PATCH', `/flows/${flow.id}/status`, { active: true });
    expect((await fetch(`${base}/webhooks/flows/${flow.id}`, { method: 'POST' })).status).toBe(204);
    const [run] = await eventually(
      () => api('GET', `/executions?flowId=${flow.id}`),
      (runs) => runs[0]?.status === 'success',
      15_000,
    );
    const executionId: string = run.id;
    const at = new Date();
    // Written from a second connection while the instance's worker writes too: tried again while SQLite is busy.
    const call = (seq: number, fields: Record<string, unknown>) =>
      eventually(
        () =>
          record(seq, fields).then(
            () => true,
            (error: Error) => (/locked|busy/i.test(error.message) ? false : Promise.reject(error)),
          ),
        (done) => done,
        30_000,
      );
    const record = (seq: number, fields: Record<string, unknown>) =>
      repos.stepCalls.insert({
        id: crypto.randomUUID(),
        executionId,
        stepKey: `${action.id}@`,
        stepId: action.id,
        seq,
        input: null,
        output: null,
        error: null,
        usage: null,
        startedAt: at,
        finishedAt: at,
        ...fields,
      } as Parameters<Repositories['stepCalls']['insert']>[0]);
    await call(0, {
      kind: 'model',
      name: 'gpt-4o-mini',
      status: 'success',
      input: [{ role: 'user', content: 'Shout hello' }],
      output: { toolCalls: [{ name: 'formatter_text' }] },
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    await call(1, {
      kind: 'tool',
      name: 'formatter_text',
      status: 'success',
      input: { input: 'hello', transform: 'uppercase' },
      output: { output: 'HELLO' },
    });
    await call(2, { kind: 'tool', name: 'slack_send', status: 'denied', error: 'A person denied the call.' });
    await call(3, {
      kind: 'tool',
      name: 'github_create_issue',
      status: 'waiting',
      input: { title: 'Bug' },
      finishedAt: null,
    });

    await page.goto(`${base}/executions/${executionId}`);
    const calls = page.getByRole('region', { name: 'Calls' });
    await calls.getByText('Calls (4)').waitFor();
    await calls.getByText('1 model call (120 tokens in, 30 out), 3 tool calls.').waitFor();
    const entries = calls.getByRole('listitem');
    expect(await entries.count()).toBe(4);
    expect(await entries.nth(0).textContent()).toContain('120 tokens in, 30 out');
    expect(await entries.nth(1).textContent()).toContain('HELLO');
    expect(await entries.nth(2).textContent()).toContain('A person denied the call.');
    const waiting = entries.nth(3);
    expect(await waiting.textContent()).toContain('waits for your approval');
    await waiting.getByRole('button', { name: 'Approve github_create_issue' }).waitFor();
    await waiting.getByRole('button', { name: 'Deny github_create_issue' }).waitFor();
    await shot('4-execution-calls');
  }, 120_000);

  it('creates an agent, sets its limits and memory, and gives it a tool that asks first', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
    await page.getByText('No agent yet').waitFor();
    await page.getByRole('link', { name: 'Create agent' }).click();
    await page.getByLabel('Name').fill('Support helper');
    await page.getByLabel('Instructions').fill('Answer briefly.');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Support helper' }).waitFor();
    // No model chosen yet: the page says where to choose one.
    await page.getByText('The agent has no model yet').waitFor();
    const [agent] = await api('GET', '/agents');
    expect(agent).toMatchObject({ name: 'Support helper', instructions: 'Answer briefly.', connectionId: null });

    // Settings: limits and memory, saved as they were typed.
    const tabs = page.getByRole('navigation', { name: 'About Support helper' });
    await tabs.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Model calls at most').fill('4');
    await page.getByLabel('Remember conversations').check();
    await page.getByLabel('Messages kept').fill('8');
    await page.getByLabel('Model', { exact: true }).fill('gpt-4o-mini');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect(await api('GET', `/agents/${agent.id}`)).toMatchObject({
      model: 'gpt-4o-mini',
      limits: { maxIterations: 4 },
      memory: { enabled: true, maxMessages: 8 },
    });

    // A tool: the Formatter's Text action, which asks first.
    await tabs.getByRole('link', { name: 'Tools' }).click();
    const add = page.getByRole('form', { name: 'Add a tool' });
    await add.getByLabel('App').selectOption({ label: 'Formatter' });
    await add.getByLabel('Text').check();
    await add.getByRole('group', { name: 'Ask first' }).getByLabel('Text').check();
    await add.getByRole('button', { name: 'Add tool' }).click();
    const tool = page.getByRole('listitem', { name: 'Formatter' });
    await tool.getByText('text · ask first').waitFor();
    expect(await api('GET', `/agents/${agent.id}/tools`)).toMatchObject([
      { type: 'app', appKey: 'formatter', actions: ['text'], askFirst: ['text'] },
    ]);
    await shot('1-agent-tools');
  }, 60_000);

  it('creates an MCP server: its address once, a tool, the client configuration, a new token', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP servers' }).click();
    await page.getByText('No MCP server yet').waitFor();
    await page.getByLabel('Name').fill('Team tools');
    await page.getByRole('button', { name: 'Create MCP server' }).click();
    await page.getByText('you will not see it again').waitFor();
    const serverUrl = await page.getByTestId('mcp-server-url').textContent();
    const secret = await page.getByTestId('mcp-server-token').textContent();
    expect(serverUrl).toContain(`/mcp/${secret}`);
    // Claude Desktop's configuration holds the address, through mcp-remote.
    const configuration = JSON.parse((await page.getByTestId('mcp-client-configuration').textContent()) ?? '');
    expect(configuration).toEqual({
      mcpServers: { 'team-tools': { command: 'npx', args: ['-y', 'mcp-remote', serverUrl] } },
    });
    await page.getByRole('button', { name: 'Copy the address' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(serverUrl);
    await shot('2-mcp-server-created');

    // Once: the page again has no token.
    await page.reload();
    await page.getByRole('heading', { name: 'Team tools' }).waitFor();
    await page.getByText('shown only when it is made').waitFor();
    expect(await page.getByTestId('mcp-server-url').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // A tool: an app's action.
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const add = page.getByRole('form', { name: 'Add a tool' });
    await add.getByLabel('App').selectOption({ label: 'Formatter' });
    await add.getByLabel('Action').selectOption({ label: 'Text' });
    await add.getByRole('button', { name: 'Add tool' }).click();
    await page.getByRole('cell', { name: 'Formatter: text', exact: true }).waitFor();
    const [server] = await api('GET', '/mcp-servers');
    expect(await api('GET', `/mcp-servers/${server.id}/tools`)).toMatchObject([
      { type: 'app', appKey: 'formatter', action: 'text' },
    ]);

    // A client calls it at the address; the call is in the server's Tool calls.
    const address = local(serverUrl ?? '');
    const client = await connect(address);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    await client.callTool({ name: tools[0]?.name ?? '', arguments: { input: 'quiet', transform: 'uppercase' } });
    await client.close();
    await page.getByRole('link', { name: 'Tool calls' }).click();
    const call = page.getByRole('region', { name: 'Tool calls' }).locator('details');
    await call.getByText('Formatter: text').waitFor();
    await call.locator('summary').click();
    expect(await call.textContent()).toContain('QUIET');

    // A new token: shown once too, and another.
    await page.getByRole('link', { name: 'Connect a client' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Make a new token' }).click();
    await page.getByText('you will not see it again').waitFor();
    const rotated = await page.getByTestId('mcp-server-token').textContent();
    expect(rotated).not.toBe(secret);
    // The old address is refused at once; the new one answers.
    await expect(connect(address)).rejects.toThrow();
    await (await connect(local((await page.getByTestId('mcp-server-url').textContent()) ?? ''))).close();
    await shot('3-mcp-server-rotated');
  }, 60_000);
});
