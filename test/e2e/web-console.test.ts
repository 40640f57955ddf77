import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../apps/support/fake-github.js';
import { ensureChromium } from '../support/chromium.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { processDatabase, type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * The console in a real browser against a real server process on a fresh SQLite database: a new
 * user installs, signs in, builds a webhook → formatter flow, tests it, publishes it, sends a
 * webhook and watches the execution. Screenshots of the main pages go to test-results/screenshots.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const ADMIN = { fullName: 'Ada Admin', email: 'ada@example.com', password: 'a long password' };

const browserAvailable = ensureChromium();
const ci = process.env.CI === 'true' || process.env.CI === '1';
if ('missing' in browserAvailable) {
  if (ci) throw new Error(`CI: the web console end-to-end suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(
    `\n*** ${browserAvailable.missing} The web console end-to-end suite is SKIPPED. Install chromium to run it. ***\n\n`,
  );
}

const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? done(address.port) : fail(new Error('no port'))));
    });
  });

/** Polls `check` until it holds; the browser and the worker both answer asynchronously. */
const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe.skipIf('missing' in browserAvailable)('the web console in Chromium', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let server: ServerProcess;
  let base: string;
  let browser: Browser;
  let page: Page;
  let github: FakeGitHub;

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const stepCard = (position: number) => page.locator('article.step-card').nth(position - 1);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // The console's assets, built from the sources under test with the project's own Vite config.
    const assets = mkdtempSync(join(tmpdir(), 'conveyor-console-'));
    cleanups.push(() => rmSync(assets, { recursive: true, force: true }));
    await build({
      configFile: resolve('vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: assets, emptyOutDir: true },
    });

    github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = startServerProcess({
      ...(await processDatabase('sqlite', cleanups)),
      PORT: String(port),
      WEB_APP_URL: base,
      WEB_CONSOLE_DIR: assets,
      ENCRYPTION_KEY: 'b'.repeat(64),
      LOG_LEVEL: 'warn',
      QUEUE_POLL_INTERVAL_MS: '50',
      // The fake OAuth provider listens on loopback.
      ALLOW_PRIVATE_NETWORKS: 'true',
      // The administration pages include the enterprise ones (roles, templates, API tokens).
      ...enterpriseEnv(),
    });
    cleanups.push(() => {
      server.child.kill('SIGKILL');
    });
    // LOG_LEVEL warn hides the "listening" line; wait for the health check instead.
    await eventually(
      () =>
        fetch(`${base}/healthcheck`).then(
          (r) => r.ok,
          () => false,
        ),
      `the server to listen:\n${server.output()}`,
    );

    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await chromium.launch({ executablePath: launchPath, headless: true, args: ['--no-sandbox'] });
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1366, height: 820 } });
    // The provider's consent page: the user agrees at once and is sent back with a code and the state.
    await context.route('**/login/oauth/authorize?**', (route) => {
      const asked = new URL(route.request().url());
      const back = new URL(asked.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'good-code');
      back.searchParams.set('state', asked.searchParams.get('state') ?? '');
      return route.fulfill({ status: 302, headers: { location: back.toString() } });
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('serves the console at / with an SPA fallback, and JSON 404s for unknown API paths', async () => {
    const home = await fetch(`${base}/flows/some-flow`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(await home.text()).toContain('<div id="app">');
    const api = await fetch(`${base}/api/v1/no-such-route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ meta: { type: 'NotFoundError' } });
  });

  it('installs, signs in, builds, tests and publishes a flow, and shows its execution', async () => {
    // Installation: the first administrator.
    await page.goto(base);
    await page.getByRole('heading', { name: 'Welcome to Conveyor' }).waitFor();
    await shot('01-installation');
    await page.getByLabel('Full name').fill(ADMIN.fullName);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create administrator' }).click();

    // Sign in; a wrong password is refused next to the form first.
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Incorrect email or password.').waitFor();
    await shot('02-sign-in-refused');
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // The empty flows list, then a new flow in the editor.
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    await page.getByText('No flows yet.').waitFor();
    await shot('03-flows-empty');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const flowId = page.url().split('/').pop() ?? '';

    // Trigger: catch a raw webhook; its address is shown.
    const trigger = stepCard(1);
    await trigger.getByLabel('App').selectOption({ label: 'Webhook' });
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    expect(webhookUrl).toBe(`${base}/webhooks/flows/${flowId}`);

    // Publishing now is refused, and the server's reason is shown.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('All steps must be completed before the flow is published.').waitFor();
    await stepCard(2).getByText('This step is not complete: choose an app and an action.').waitFor();

    // A request to the draft flow is kept as sample data; testing the trigger shows it.
    const sample = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ada lovelace' }),
    });
    expect(sample.status).toBeLessThan(300);
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();
    await expect.poll(() => trigger.locator('pre.json').textContent()).toContain('ada lovelace');

    // Action: formatter text → uppercase of the webhook's body.name, picked from the variables.
    const action = stepCard(2);
    await action.getByLabel('App').selectOption({ label: 'Formatter' });
    await action.getByLabel('Action event').selectOption({ label: 'Text' });
    // The transform's own fields come from the app's dynamic fields.
    await action.getByLabel('Transform (required)').selectOption({ label: 'Replace' });
    await action.getByLabel('Replace with').waitFor();
    await action.getByLabel('Transform (required)').selectOption({ label: 'Uppercase' });
    await action.getByLabel('Replace with').waitFor({ state: 'detached' });
    await action.getByRole('button', { name: 'Insert variable into Input' }).click();
    await action.getByRole('button', { name: /body\.name/ }).click();
    const input = action.getByLabel('Input', { exact: true });
    expect(await input.inputValue()).toBe(`{{step.${await trigger.getAttribute('data-step-id')}.body.name}}`);
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    await action.getByRole('button', { name: 'Saved' }).waitFor();
    await action.getByRole('button', { name: 'Test step' }).click();
    await action.getByText('Test succeeded.').waitFor();
    await expect.poll(() => action.locator('pre.json').textContent()).toContain('ADA LOVELACE');
    // Every step is complete now: the earlier refusal is no longer shown.
    await page.getByText('All steps must be completed before the flow is published.').waitFor({ state: 'detached' });
    await shot('04-flow-editor-tested');

    // Rename and publish.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Flow name').fill('Shout names');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { name: 'Shout names' }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    await shot('05-flow-published');

    // A real webhook now runs the published flow.
    const live = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'grace hopper' }),
    });
    expect(live.status).toBe(204);

    // The executions list shows the run (not a test run) once the worker finished it.
    await page.getByRole('link', { name: 'Executions', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    const liveRow: Locator = page.locator('tbody tr').filter({ hasNotText: 'test' }).filter({ hasText: 'Shout names' });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(150);
      return (await liveRow.filter({ hasText: 'success' }).count()) === 1;
    }, 'the successful execution in the list');
    await shot('06-executions');
    await liveRow.getByRole('link', { name: 'Shout names' }).click();
    await page.getByRole('heading', { name: 'Execution of Shout names' }).waitFor();
    const steps = page.locator('article.step-card');
    await expect.poll(() => steps.count()).toBe(2);
    await expect.poll(() => steps.nth(0).textContent()).toContain('grace hopper');
    await expect.poll(() => steps.nth(1).textContent()).toContain('GRACE HOPPER');
    await shot('07-execution-detail');

    // The flows list shows it published; signing out returns to the sign-in page.
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.locator('tbody tr').filter({ hasText: 'Shout names' }).getByText('published').waitFor();
    await shot('08-flows-list');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();

    // A token the server no longer accepts (401) ends the session, and sign-in returns to the page.
    await page.evaluate("localStorage.setItem('conveyor.accessToken', 'revoked-or-expired')");
    await page.goto(`${base}/executions`);
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/executions');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
  }, 90_000);

  it('connects GitHub through the OAuth consent window', async () => {
    await page.goto(`${base}/connections`);
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    await page.getByRole('link', { name: 'GitHub' }).click();
    await page.getByText('No GitHub connection yet.').waitFor();
    await page.getByRole('button', { name: 'Add connection' }).click();
    const form = page.getByRole('form', { name: 'Connect GitHub' });
    await form.getByLabel('Client ID').fill(github.client.clientId);
    await form.getByLabel('Client secret').fill(github.client.clientSecret);
    await form.getByLabel('API base URL').fill(github.client.apiBaseUrl);
    await form.getByLabel('Authorization URL').fill(github.client.authorizeUrl);
    await form.getByLabel('Token URL').fill(github.client.tokenUrl);
    const popup = page.waitForEvent('popup');
    await form.getByRole('button', { name: 'Sign in with GitHub' }).click();
    // The console page finishes the connection in the window and closes it.
    const opened = await popup;
    if (!opened.isClosed()) await opened.waitForEvent('close');
    const row = page.locator('tbody tr').filter({ hasText: 'octocat' });
    await row.getByText('verified').waitFor();
    await shot('09-connections');
    await row.getByRole('button', { name: 'Test' }).click();
    await page.getByText('octocat works.').waitFor();
  }, 60_000);

  it('administers the instance: invitation accepted, role, templates, API token', async () => {
    await page.goto(`${base}/admin`);
    await page.waitForURL(/\/admin\/users$/);
    const invite = page.getByRole('form', { name: 'Invite a user' });
    await invite.getByLabel('Full name').fill('Bob User');
    await invite.getByLabel('E-mail').fill('bob@example.com');
    await invite.getByLabel('Role').selectOption({ label: 'User' });
    await invite.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.locator('.alert-success code').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${base}/accept-invitation\\?token=`));
    await page.locator('tbody tr').filter({ hasText: 'bob@example.com' }).getByText('invited').waitFor();
    await shot('10-admin-users');

    // Bob accepts in a browser of his own and signs in: a user, without the administration.
    const bobContext = await browser.newContext();
    const bob = await bobContext.newPage();
    await bob.goto(link);
    await bob.getByLabel('New password').fill('bob password 1');
    await bob.getByRole('button', { name: 'Set password' }).click();
    await bob.getByText('Your account is ready.').waitFor();
    await bob.getByRole('link', { name: 'Sign in' }).click();
    await bob.getByLabel('E-mail').fill('bob@example.com');
    await bob.getByLabel('Password').fill('bob password 1');
    await bob.getByRole('button', { name: 'Sign in' }).click();
    await bob.getByText('No flows yet.').waitFor();
    expect(await bob.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await bobContext.close();

    // A role that may only read flows.
    await page.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('button', { name: 'New role' }).click();
    const roleForm = page.getByRole('form', { name: 'New role' });
    await roleForm.getByLabel('Name').fill('Reviewer');
    await roleForm.getByLabel('Grant Read Flow').check();
    await roleForm.getByRole('button', { name: 'Save role' }).click();
    await page.locator('tbody tr').filter({ hasText: 'Reviewer' }).getByText('read Flow').waitFor();
    await shot('11-admin-roles');

    // Templates: switched on, made from the flow, and used to start a new flow.
    await page.getByRole('link', { name: 'Settings and licence' }).click();
    await page.getByText('Test Licensee').waitFor();
    await page.getByLabel('Users can start flows from templates').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByLabel('Template name').fill('Shouter');
    await page.getByLabel('Flow').selectOption({ label: 'Shout names' });
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.locator('tbody tr').filter({ hasText: 'Shouter' }).waitFor();

    // An API token, shown once, that works against the API.
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'Create API token' }).click();
    const apiToken = (await page.getByTestId('new-api-token').textContent()) ?? '';
    const me = await fetch(`${base}/api/v1/users/me`, { headers: { 'x-api-token': apiToken } });
    expect(me.status).toBe(200);
    await shot('12-admin-api-tokens');

    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByLabel('Template').selectOption({ label: 'Shouter' });
    await page.getByRole('button', { name: 'Start from template' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    await page.locator('article.step-card').first().getByText('Webhook · Catch raw webhook').waitFor();
  }, 60_000);

  it('manages flows from the list: search, filter, duplicate, export, import, folders, rename, delete', async () => {
    page.on('dialog', (dialog) => void dialog.accept(dialog.type() === 'prompt' ? 'Marketing' : undefined));
    await page.goto(`${base}/flows`);
    const rows = page.locator('tbody tr');
    const row = (name: string) => rows.filter({ has: page.getByRole('link', { name, exact: true }) });

    await row('Shout names').getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { name: 'Copy of Shout names' }).waitFor();
    await page.getByRole('link', { name: '← All flows' }).click();

    await page.getByLabel('Search by name').fill('copy of');
    await expect.poll(() => rows.count()).toBe(1);
    await row('Copy of Shout names').waitFor();
    await page.getByLabel('Search by name').fill('');
    await page.getByLabel('Status').selectOption({ label: 'Published' });
    await expect.poll(() => rows.count()).toBe(1);
    await row('Shout names').waitFor();
    await page.getByLabel('Status').selectOption({ label: 'Any' });

    const download = page.waitForEvent('download');
    await row('Shout names').getByRole('button', { name: 'Export' }).click();
    const exported = await (await download).path();
    await page.getByLabel('Import').setInputFiles(exported);
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Shout names' }).waitFor();
    expect(await page.locator('article.step-card').count()).toBe(2);
    await page.getByRole('link', { name: '← All flows' }).click();

    await page.getByRole('button', { name: 'New folder' }).click();
    await expect.poll(() => page.getByLabel('Folder', { exact: true }).inputValue()).not.toBe('');
    await page.getByText('No flow matches these filters.').waitFor();
    await page.getByLabel('Folder', { exact: true }).selectOption({ label: 'All flows' });
    await row('Copy of Shout names').getByLabel('Folder of Copy of Shout names').selectOption({ label: 'Marketing' });
    await page.getByLabel('Folder', { exact: true }).selectOption({ label: 'Marketing' });
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('Folder', { exact: true }).selectOption({ label: 'All flows' });

    await row('Copy of Shout names').getByRole('button', { name: 'Rename Copy of Shout names' }).click();
    await page.getByLabel('New name of Copy of Shout names').fill('Whisper names');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await row('Whisper names').waitFor();
    await row('Whisper names').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row('Whisper names').count()).toBe(0);
    await shot('13-flows-managed');
  }, 60_000);

  it("shows a failing step's error in the editor and the execution, and retries it", async () => {
    await page.goto(`${base}/flows`);
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const trigger = stepCard(1);
    await trigger.getByLabel('App').selectOption({ label: 'Webhook' });
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();

    const action = stepCard(2);
    await action.getByLabel('App').selectOption({ label: 'Code' });
    await action.getByLabel('Action event').selectOption({ label: 'Run JavaScript' });
    await action.getByRole('button', { name: 'Add a row to Inputs' }).click();
    await action.getByLabel('Inputs: key 1').fill('who');
    await action.getByLabel('Inputs: value 1').fill('the sandbox');
    await action
      .getByLabel('Code (required)')
      .fill("async function code(inputs) { throw new Error('boom from ' + inputs.who); }");
    await action.getByRole('button', { name: 'Test step' }).click();
    await action.getByText('Test failed.').waitFor();
    await expect.poll(() => action.locator('pre.json').textContent()).toContain('boom from the sandbox');

    // The failed test run is an execution too: its error shows, and a retry runs it again.
    await page.getByRole('link', { name: 'Executions', exact: true }).first().click();
    await page.getByLabel('Status').selectOption({ label: 'Failure' });
    await page.locator('tbody tr').first().getByRole('link').click();
    await page.getByRole('heading', { name: 'Error' }).waitFor();
    await expect.poll(() => page.locator('article.step-card').last().textContent()).toContain('boom from the sandbox');
    await shot('14-execution-failed');
    const failedUrl = page.url();
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL((url) => url.href !== failedUrl && /\/executions\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByRole('heading', { name: /^Execution of / }).waitFor();
  }, 60_000);

  it('uses a connection and dynamic options in the editor: a GitHub issue from a webhook', async () => {
    await page.goto(`${base}/flows`);
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const trigger = stepCard(1);
    await trigger.getByLabel('App').selectOption({ label: 'Webhook' });
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"Broken"}',
    });
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();

    const action = stepCard(2);
    await action.getByLabel('App').selectOption({ label: 'GitHub' });
    await action.getByLabel('Action event').selectOption({ label: 'Create issue' });
    await action.getByLabel('Connection (required)').selectOption({ label: 'octocat' });
    // The repositories come from the app's dynamic data, through the step's connection.
    const repository = action.getByLabel('Repository (required)');
    await expect.poll(() => repository.locator('option').allTextContents()).toContain('octocat/spoon-knife');
    await repository.selectOption({ label: 'octocat/spoon-knife' });
    await action.getByRole('button', { name: 'Insert variable into Title' }).click();
    await action.getByRole('button', { name: /body\.title/ }).click();
    await action.getByRole('button', { name: 'Test step' }).click();
    await action.getByText('Test succeeded.').waitFor();
    expect(github.issues).toContainEqual({ repo: 'octocat/spoon-knife', title: 'Broken', body: null });
    await shot('15-flow-editor-github');
  }, 60_000);
});
