import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../apps/support/fake-github.js';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { processDatabase, startServerProcess } from '../support/server-process.js';
import { serviceAvailable } from '../support/services.js';

/**
 * The console in a real browser against a real server process on a fresh SQLite database: a new
 * user installs, signs in, builds a webhook → formatter flow, tests it, publishes it, sends a
 * webhook and watches the execution. Screenshots of the main pages go to test-results/screenshots.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const redisReachable = await serviceAvailable('redis');
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

/**
 * A page a flow answers with, written to take what it can: the origin's storage and cookies, the
 * API with the visitor's session (read, and a write that needs no preflight). It writes what it got.
 */
const ATTACKER_PAGE = `<!doctype html><title>Innocent page</title><pre id="report"></pre><script>
(async () => {
  const report = { ran: 'yes', origin: String(self.origin) };
  try { report.storage = JSON.stringify({ ...localStorage }); } catch (e) { report.storage = 'blocked: ' + e.name; }
  try { report.cookie = document.cookie; } catch (e) { report.cookie = 'blocked: ' + e.name; }
  const call = async (path, init) => {
    try {
      const res = await fetch(path, { credentials: 'include', ...init });
      return res.status + ' ' + (await res.text()).slice(0, 300);
    } catch (e) {
      return 'failed: ' + e.name;
    }
  };
  report.me = await call('/api/v1/users/me', { headers: { 'x-conveyor-console': '1' } });
  report.session = await call('/api/v1/session', {});
  report.write = await call('/api/v1/flows', { method: 'POST', mode: 'no-cors', body: '{}' });
  document.getElementById('report').textContent = JSON.stringify(report);
})();
</script>`;

/** The session cookie as the server sets it (the value and domain are the test's). */
const SESSION_COOKIE = { name: 'conveyor_session', path: '/api/v1', httpOnly: true, sameSite: 'Strict' as const };

/** Fills in and sends the installation form (the first administrator). */
const installAdministrator = async (on: Page) => {
  await on.getByLabel('Full name').fill(ADMIN.fullName);
  await on.getByLabel('E-mail').fill(ADMIN.email);
  await on.getByLabel('Password').fill(ADMIN.password);
  await on.getByRole('button', { name: 'Create administrator' }).click();
};

/** Chooses a step's app in its picker: searched for by name, then taken from the list. */
const pickApp = async (card: Locator, name: string) => {
  await card.getByRole('searchbox', { name: 'Search apps' }).fill(name);
  await card.getByRole('button', { name, exact: true }).click();
};

/**
 * What a step's text field holds: the step form's editors (variables shown as chips) keep the
 * template, as stored, on their editable element; `fill` types into them like into an input.
 */
const fieldValue = (field: Locator) => field.getAttribute('data-value');

/** Records every answer of 400 or more the page gets (`METHOD path status`) until stopped. */
const refusalsOf = (on: Page) => {
  const seen: string[] = [];
  const record = (response: Response) => {
    if (response.status() < 400) return;
    const { pathname } = new URL(response.url());
    seen.push(`${response.request().method()} ${pathname} ${response.status()}`);
  };
  on.on('response', record);
  return {
    stop: () => {
      on.off('response', record);
      return seen;
    },
  };
};

/** The console's session token is in no place page script reads: not in storage, not in document.cookie. */
const expectNoTokenInReach = async (on: Page) => {
  const cookies = await on.context().cookies();
  const token = cookies.find((c) => c.name === SESSION_COOKIE.name)?.value ?? '';
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const readable = await on.evaluate<string>(
    'JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href])',
  );
  expect(readable).not.toContain(token);
  expect(readable).not.toContain('accessToken');
};

describe.skipIf('missing' in browserAvailable)('the web console in Chromium', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let base: string;
  let browser: Browser;
  let page: Page;
  let github: FakeGitHub;

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  /** The nodes of the flow editor's canvas, in the order of the steps' positions. */
  const nodes = () => page.locator('.canvas-node');
  /** A step's editor in the flow editor's side panel. */
  const panelCard = (id: string) => page.locator(`aside.step-panel [data-step-id="${id}"]`);
  /** Selects a step on the canvas (by id, or position: 1 is the trigger); its editor in the side panel. */
  const openStep = async (step: number | string) => {
    const node =
      typeof step === 'number' ? nodes().nth(step - 1) : page.locator(`.canvas-node[data-step-id="${step}"]`);
    const id = (await node.getAttribute('data-step-id')) ?? '';
    await node.locator('button.node-button').click();
    await panelCard(id).waitFor();
    return panelCard(id);
  };
  /** The signed-in administrator's token, from the console's cookie. */
  const adminToken = async () =>
    (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE.name)?.value ?? '';
  /** The API as another client holding `token` calls it; any answer but 2xx fails the test. */
  const apiAs =
    (token: string) =>
    async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return ((await res.json()) as { data: any }).data;
    };

  let assets: string;

  /** A server process on a fresh SQLite database serving the built console; its address. */
  const serve = async (env: Record<string, string>) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = startServerProcess({
      ...(await processDatabase('sqlite', cleanups)),
      PORT: String(port),
      WEB_APP_URL: url,
      WEB_CONSOLE_DIR: assets,
      ENCRYPTION_KEY: 'b'.repeat(64),
      LOG_LEVEL: 'warn',
      QUEUE_POLL_INTERVAL_MS: '50',
      ...env,
    });
    cleanups.push(() => {
      started.child.kill('SIGKILL');
    });
    // LOG_LEVEL warn hides the "listening" line; wait for the health check instead.
    await eventually(
      () =>
        fetch(`${url}/healthcheck`).then(
          (r) => r.ok,
          () => false,
        ),
      `the server to listen:\n${started.output()}`,
      // Starting from the sources (tsx) takes half a minute on a loaded two-core machine.
      60_000,
    );
    return { server: started, url };
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // The console's assets, built from the sources under test with the project's own Vite config.
    assets = mkdtempSync(join(tmpdir(), 'conveyor-console-'));
    cleanups.push(() => rmSync(assets, { recursive: true, force: true }));
    await buildConsole(assets);

    github = await startFakeGitHub();
    cleanups.push(() => github.close());
    ({ url: base } = await serve({
      // The fake OAuth provider listens on loopback.
      ALLOW_PRIVATE_NETWORKS: 'true',
      // The administration pages include the enterprise ones (roles, templates, API tokens).
      ...enterpriseEnv(),
    }));

    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
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

  it('signs the first administrator of an instance without a licence in, and asks only what a visitor may', async () => {
    const { url } = await serve({});
    const context = await browser.newContext();
    const visitor = await context.newPage();
    visitor.setDefaultTimeout(10_000);
    const refusals = refusalsOf(visitor);
    const asked: string[] = [];
    visitor.on('request', (request) => asked.push(new URL(request.url()).pathname));
    try {
      await visitor.goto(url);
      await visitor.getByRole('heading', { name: 'Welcome to Conveyor' }).waitFor();
      await installAdministrator(visitor);
      await visitor.getByRole('heading', { name: 'Flows' }).waitFor();
      await visitor.getByText('No flows yet.').waitFor();
      await visitor.getByRole('button', { name: 'Sign out' }).click();
      await visitor.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
      await visitor.reload();
      await visitor.getByLabel('E-mail').waitFor();
      // Single sign-on is an enterprise feature: without a licence the page does not ask for providers.
      expect(asked.filter((path) => path.includes('saml'))).toEqual([]);
      expect(refusals.stop()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

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
    // Every answer the console gets before it is signed in: only the wrong password may be refused.
    const refusals = refusalsOf(page);

    // Installation: the first administrator, signed in at once.
    await page.goto(base);
    await page.getByRole('heading', { name: 'Welcome to Conveyor' }).waitFor();
    await shot('01-installation');
    await installAdministrator(page);
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    await page.getByText('No flows yet.').waitFor();
    await expectNoTokenInReach(page);

    // Signed out, a wrong password is refused next to the form first.
    await page.getByRole('button', { name: 'Sign out' }).click();
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
    expect(refusals.stop()).toEqual(['POST /api/v1/session 422']);
    await expectNoTokenInReach(page);
    await shot('03-flows-empty');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const flowId = page.url().split('/').pop() ?? '';

    // Trigger: catch a raw webhook (the app's one trigger, chosen with it); its address is shown.
    const trigger = await openStep(1);
    const triggerId = await trigger.getAttribute('data-step-id');
    await pickApp(trigger, 'Webhook');
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    expect(webhookUrl).toBe(`${base}/webhooks/flows/${flowId}`);

    // Publishing now is refused, and the server's reason is shown.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('All steps must be completed before the flow is published.').waitFor();
    await (await openStep(2)).getByText('This step is not complete: choose an app and an action.').waitFor();

    // A request to the draft flow is kept as sample data; testing the trigger shows it.
    const sample = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ada lovelace' }),
    });
    expect(sample.status).toBeLessThan(300);
    await openStep(1);
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();
    await expect.poll(() => trigger.locator('.json-view').textContent()).toContain('ada lovelace');

    // Action: formatter text → uppercase of the webhook's body.name, picked from the variables.
    const action = await openStep(2);
    await pickApp(action, 'Formatter');
    await action.getByLabel('Action event').selectOption({ label: 'Text' });
    // The transform's own fields come from the app's dynamic fields.
    await action.getByLabel('Transform (required)').selectOption({ label: 'Replace' });
    await action.getByLabel('Replace with').waitFor();
    await action.getByLabel('Transform (required)').selectOption({ label: 'Uppercase' });
    await action.getByLabel('Replace with').waitFor({ state: 'detached' });
    await action.getByRole('button', { name: 'Insert variable into Input' }).click();
    await action.getByRole('button', { name: /body\.name/ }).click();
    const input = action.getByLabel('Input', { exact: true });
    expect(await fieldValue(input)).toBe(`{{step.${triggerId}.body.name}}`);
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    await action.getByRole('button', { name: 'Saved' }).waitFor();
    await action.getByRole('button', { name: 'Test step' }).click();
    await action.getByText('Test succeeded.').waitFor();
    await expect.poll(() => action.locator('.json-view').textContent()).toContain('ADA LOVELACE');
    // Every step is complete now: the earlier refusal is no longer shown.
    await page.getByText('All steps must be completed before the flow is published.').waitFor({ state: 'detached' });
    await shot('04-flow-editor-tested');

    // Rename and publish.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Flow name').fill('Shout names');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { name: 'Shout names' }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
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
    // Timestamps arrive as milliseconds since the epoch and show as local dates of this year.
    const year = String(new Date().getFullYear());
    expect(await liveRow.locator('td').nth(3).textContent()).toContain(year);
    // The execution embeds its flow and each record its step: the page asks for nothing else.
    const asked: string[] = [];
    const listen = (request: { url(): string }) => asked.push(new URL(request.url()).pathname);
    page.on('request', listen);
    await liveRow.getByRole('link', { name: 'Shout names' }).click();
    await page.getByRole('heading', { name: 'Execution of Shout names' }).waitFor();
    const steps = page.locator('article.step-card');
    await expect.poll(() => steps.count()).toBe(2);
    await expect.poll(() => steps.nth(0).textContent()).toContain('grace hopper');
    await expect.poll(() => steps.nth(1).textContent()).toContain('GRACE HOPPER');
    expect(await steps.nth(0).getByRole('heading', { level: 2 }).textContent()).toMatch(/^1\. /);
    expect(await steps.nth(1).getByRole('heading', { level: 2 }).textContent()).toMatch(/^2\. /);
    expect(await page.locator('dl.facts dd').first().textContent()).toContain(year);
    page.off('request', listen);
    expect(asked.filter((path) => path.startsWith('/api/v1/flows'))).toEqual([]);
    await shot('07-execution-detail');

    // The flows list shows it published; signing out returns to the sign-in page.
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.locator('tbody tr').filter({ hasText: 'Shout names' }).getByText('published').waitFor();
    await shot('08-flows-list');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();

    // Signed out, a page asks for sign-in and returns there; the signed-out cookie no longer works.
    await page.goto(`${base}/executions`);
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/executions');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    // The page's own requests finish first: one sent after the cookie changes would end the session early.
    await page.locator('tbody tr').filter({ hasText: 'Shout names' }).first().waitFor();
    await page.waitForLoadState('networkidle');

    // A session the server no longer accepts (401) ends the console's, and sign-in returns to the page.
    await page.context().addCookies([{ ...SESSION_COOKIE, value: 'revoked-or-expired', domain: '127.0.0.1' }]);
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to Conveyor' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/flows');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
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
    // The instance's templates are in the gallery, after the built-in ones.
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Start from a template' })
      .getByRole('button', { name: 'Use this template: Shouter' })
      .click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    await nodes().first().getByText('Catch raw webhook').waitFor();
  }, 60_000);

  it("keeps the administrator's session out of reach of a page a User-role account publishes", async () => {
    const json = { 'content-type': 'application/json' };

    // Bob (role User, invited above) publishes a flow that answers with a page whose script goes
    // for the visitor's credentials and rights, and writes down what it got.
    const signedIn = await fetch(`${base}/api/v1/access-tokens`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'bob@example.com', password: 'bob password 1' }),
    });
    const bob = ((await signedIn.json()) as { data: { token: string } }).data.token;
    const asBob = apiAs(bob);
    const flow = await asBob('POST', '/flows');
    await asBob('PATCH', `/steps/${flow.steps[0].id}`, {
      appKey: 'webhook',
      key: 'catchRawWebhook',
      parameters: { workSynchronously: true },
    });
    await asBob('PATCH', `/steps/${flow.steps[1].id}`, {
      appKey: 'webhook',
      key: 'respondWith',
      parameters: {
        statusCode: 200,
        headers: [
          { key: 'Content-Type', value: 'text/html; charset=utf-8' },
          { key: 'Content-Security-Policy', value: "default-src * 'unsafe-inline'" },
          { key: 'Set-Cookie', value: 'conveyor_session=planted-by-bob; Path=/api/v1' },
        ],
        body: ATTACKER_PAGE,
      },
    });
    await asBob('PATCH', `/flows/${flow.id}/status`, { active: true });
    try {
      await expectPageHarmless(flow.id);
    } finally {
      // The flow lists of the tests after this one are the administrator's alone.
      await fetch(`${base}/api/v1/flows/${flow.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${bob}` } });
    }
  }, 60_000);

  /** The administrator, signed in to the console, opens Bob's page: it gets nothing of theirs. */
  const expectPageHarmless = async (flowId: string) => {
    const token = await adminToken();
    const flowCount = async () =>
      (
        (await (
          await fetch(`${base}/api/v1/flows?perPage=100`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { data: unknown[] }
      ).data.length;
    const flowsBefore = await flowCount();

    const tab = await page.context().newPage();
    await tab.goto(`${base}/webhooks/flows/${flowId}/sync`);
    const reportText = await tab.locator('#report:not(:empty)').textContent();
    await tab.close();
    const report = JSON.parse(reportText ?? '{}') as Record<string, string>;
    expect(report.ran).toBe('yes');
    expect(report.origin).toBe('null');
    expect(report.storage).toMatch(/^blocked/);
    expect(report.cookie).toMatch(/^blocked/);
    expect(report.me).not.toMatch(/^200/);
    expect(report.session).not.toMatch(/"signedIn":true/);
    expect(JSON.stringify(report)).not.toContain(token);
    // Nothing was done with the administrator's rights, and the session is still the administrator's.
    expect(await flowCount()).toBe(flowsBefore);
    const session = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE.name);
    expect(session?.value).toBe(token);
    await page.goto(`${base}/flows`);
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    await expectNoTokenInReach(page);
  };

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
    expect(await nodes().count()).toBe(2);
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
    const trigger = await openStep(1);
    await pickApp(trigger, 'Webhook');
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();

    const action = await openStep(2);
    await pickApp(action, 'Code');
    await action.getByLabel('Action event').selectOption({ label: 'Run JavaScript' });
    await action.getByRole('button', { name: 'Add a row to Inputs' }).click();
    await action.getByLabel('Inputs: key 1').fill('who');
    await action.getByLabel('Inputs: value 1').fill('the sandbox');
    await action
      .getByLabel('Code (required)')
      .fill("async function code(inputs) { throw new Error('boom from ' + inputs.who); }");
    await action.getByRole('button', { name: 'Test step' }).click();
    await action.getByText('Test failed.').waitFor();
    await expect.poll(() => action.locator('.json-view').textContent()).toContain('boom from the sandbox');

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
    const trigger = await openStep(1);
    await pickApp(trigger, 'Webhook');
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"Broken"}',
    });
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();

    const action = await openStep(2);
    await pickApp(action, 'GitHub');
    await action.getByLabel('Action event').selectOption({ label: 'Create issue' });
    await action.getByLabel('Connection (required)').selectOption({ label: 'octocat' });
    // The repositories come from the app's dynamic data, through the step's connection.
    const repository = action.getByLabel('Repository (required)');
    // Asked for once the connection is saved: a loaded machine may take seconds over it.
    await expect
      .poll(() => repository.locator('option').allTextContents(), { timeout: 15_000 })
      .toContain('octocat/spoon-knife');
    await repository.selectOption({ label: 'octocat/spoon-knife' });
    await action.getByRole('button', { name: 'Insert variable into Title' }).click();
    await action.getByRole('button', { name: /body\.title/ }).click();
    await action.getByRole('button', { name: 'Test step' }).click();
    await action.getByText('Test succeeded.').waitFor();
    expect(github.issues).toContainEqual({ repo: 'octocat/spoon-knife', title: 'Broken', body: null });
    await shot('15-flow-editor-github');
  }, 60_000);

  it('edits a live flow as a draft: banner, publish with a message, history, compare, restore, discard, a stale change, and a retry on the new version', async () => {
    /** The API as another tab of the administrator's would call it: without the console's revision. */
    const elsewhere = apiAs(await adminToken());
    const CODE_V1 = "async function code() { throw new Error('version one fails'); }";
    const CODE_V2 = "async function code() { return { said: 'version two' }; }";

    // A published flow (version 1) whose code step fails, and a real run of it that failed.
    const created = await elsewhere('POST', '/flows');
    const flowId: string = created.id;
    const [triggerId, actionId] = created.steps.map((s: { id: string }) => s.id);
    await elsewhere('PATCH', `/flows/${flowId}`, { name: 'Versioned' });
    await elsewhere('PATCH', `/steps/${triggerId}`, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} });
    await elsewhere('PATCH', `/steps/${actionId}`, {
      appKey: 'code',
      key: 'runJavascript',
      parameters: { inputs: [], codeSnippet: CODE_V1 },
    });
    await elsewhere('PATCH', `/flows/${flowId}/status`, { active: true });
    const hook = await fetch(`${base}/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(hook.status).toBe(204);
    let failedId = '';
    await eventually(async () => {
      const [run] = await elsewhere('GET', `/executions?flowId=${flowId}`);
      failedId = run?.status === 'failure' ? run.id : '';
      return failedId !== '';
    }, 'the run of version 1 to fail');

    // Every change of the draft the console sends names the revision it is based on.
    const writes: string[] = [];
    const watchWrites = (request: { method(): string; url(): string; headers(): Record<string, string> }) => {
      const { pathname } = new URL(request.url());
      const draftWrite =
        request.method() !== 'GET' &&
        (/^\/api\/v1\/steps\/[^/]+$/.test(pathname) ||
          new RegExp(`^/api/v1/flows/${flowId}(/status|/steps|/draft|/versions(/[^/]+/restore)?)?$`).test(pathname));
      if (draftWrite) writes.push(`${request.method()} ${pathname} ${request.headers()['if-match'] ?? 'no If-Match'}`);
    };
    page.on('request', watchWrites);
    const dialogs: string[] = [];
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });

    // The live flow opens as it runs: no draft banner, its version named.
    await page.goto(`${base}/flows/${flowId}`);
    await page.getByRole('heading', { name: 'Versioned' }).waitFor();
    await page.getByText('version 1 live').waitFor();
    const banner = page.getByRole('region', { name: 'Draft' });
    expect(await banner.count()).toBe(0);

    // Editing it makes a draft; version 1 keeps running.
    const action = await openStep(2);
    const code = action.getByLabel('Code (required)');
    expect(await fieldValue(code)).toBe(CODE_V1);
    await code.fill(CODE_V2);
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    await action.getByRole('button', { name: 'Saved' }).waitFor();
    await banner.getByText('Published version 1 is live. You are editing a draft.').waitFor();
    await shot('16-flow-draft-banner');

    // Publish with a message: version 2.
    await banner.getByRole('button', { name: 'Publish changes' }).click();
    await banner.getByLabel('What changed (optional)').fill('Stop failing');
    await banner.getByRole('button', { name: 'Publish version 2' }).click();
    await page.locator('.toasts').getByText('Version 2 is live.').waitFor();
    await banner.waitFor({ state: 'detached' });
    await page.getByText('version 2 live').waitFor();

    // The history: newest first, with the message, who and when.
    await page.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'Version history' });
    const versionRows = history.locator('tbody tr');
    await expect.poll(() => versionRows.count()).toBe(2);
    const year = String(new Date().getFullYear());
    const newest = (await versionRows.nth(0).textContent()) ?? '';
    for (const part of ['Version 2', 'live', 'Stop failing', 'you', year]) expect(newest).toContain(part);
    const oldest = (await versionRows.nth(1).textContent()) ?? '';
    for (const part of ['Version 1', 'No message', 'you']) expect(oldest).toContain(part);

    // Compare version 1 with the draft (version 2's content), then with version 2 itself.
    await history.getByRole('button', { name: 'Compare version 1' }).click();
    const comparison = history.getByRole('region', { name: 'Comparison' });
    await comparison.getByText('Changed steps').waitFor();
    await comparison.getByText('code · runJavascript: setting “codeSnippet”').waitFor();
    await comparison.getByLabel('with', { exact: true }).selectOption({ label: 'Version 2' });
    await expect.poll(() => comparison.textContent()).toContain('From version 1 to version 2');
    await comparison.getByText('code · runJavascript: setting “codeSnippet”').waitFor();
    await comparison.getByLabel('Compare', { exact: true }).selectOption({ label: 'Version 2' });
    await comparison.getByText('No differences.').waitFor();
    await shot('17-flow-history-compare');

    // Restore version 1: it becomes the draft, and the banner offers to publish it.
    await history.getByRole('button', { name: 'Restore version 1' }).click();
    await page
      .locator('.toasts')
      .getByText('Version 1 is restored as the draft. Publish it to make it live.')
      .waitFor();
    expect(dialogs.at(-1)).toMatch(/^Make version 1 the draft\?/);
    await banner.getByText('Published version 2 is live. You are editing a draft.').waitFor();
    await banner.getByRole('button', { name: 'Publish changes' }).waitFor();
    await expect.poll(() => fieldValue(code)).toBe(CODE_V1);
    await shot('18-flow-version-restored');

    // Discard it: the draft is version 2 again.
    await banner.getByRole('button', { name: 'Discard changes' }).click();
    await page.locator('.toasts').getByText('Draft discarded: back to version 2.').waitFor();
    expect(dialogs.at(-1)).toMatch(/^Discard the changes to the draft\?/);
    await banner.waitFor({ state: 'detached' });
    await expect.poll(() => fieldValue(code)).toBe(CODE_V2);

    // Someone else changes the flow meanwhile: the console's next change is refused, said, and kept on the page.
    await elsewhere('PATCH', `/flows/${flowId}`, { name: 'Renamed elsewhere' });
    const edited = "async function code() { return { said: 'mine' }; }";
    await code.fill(edited);
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'This flow was changed somewhere else' });
    await conflict.waitFor();
    expect(await fieldValue(code)).toBe(edited);
    await action.getByRole('button', { name: 'Save', exact: true }).waitFor();
    await shot('19-flow-conflict');
    await conflict.getByRole('button', { name: 'Reload the flow' }).click();
    await page.getByRole('heading', { name: 'Renamed elsewhere' }).waitFor();
    await conflict.waitFor({ state: 'detached' });
    await expect.poll(() => fieldValue(code)).toBe(CODE_V2);
    // Reloaded, the same change goes through.
    await code.fill(edited);
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    await action.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await elsewhere('GET', `/flows/${flowId}`)).steps[1].parameters.codeSnippet).toBe(edited);
    page.off('request', watchWrites);
    expect(writes.length).toBeGreaterThanOrEqual(6);
    expect(writes.filter((write) => !/ "\d+"$/.test(write))).toEqual([]);

    // The failed run ran version 1: retried on version 2 (the live one), it succeeds.
    await page.goto(`${base}/executions?flowId=${flowId}`);
    await page.locator('tbody tr').first().getByText('v1', { exact: true }).waitFor();
    await page.goto(`${base}/executions/${failedId}`);
    await page.getByText("Version 1 (the flow's published version is now 2)").waitFor();
    await page.getByLabel('Retry on').selectOption({ label: 'version 2, the live one' });
    await shot('20-execution-retry-version');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(
      (url) => !url.pathname.endsWith(failedId) && /\/executions\/[0-9a-f-]{36}$/.test(url.pathname),
    );
    await page.locator('dl.facts').getByText('Version 2', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'the earlier execution' }).waitFor();
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(150);
      return (await page.locator('.page-header .badge-success').count()) === 1;
    }, 'the retry on version 2 to succeed');
  }, 90_000);

  it('builds a form, answers it on its public page, and sees the flow that listens for it answer', async () => {
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${base}/flows`);
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('heading', { name: 'Forms' }).waitFor();
    await page.getByText('No form yet.').waitFor();

    // A form with three fields: a required name, an e-mail address, a dropdown.
    await page.getByRole('link', { name: 'Create form' }).click();
    await page.getByRole('heading', { name: 'Create form' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Newsletter sign-up');
    await page.getByLabel('Title on its page').fill('Join our <newsletter>');
    await page.getByLabel('Response message').fill('See you soon.');
    const field = (n: number) => page.getByRole('group', { name: new RegExp(`^Field ${n}`) });
    await field(1).getByLabel('Label').fill('Your name');
    await field(1).getByLabel('Required').check();
    await page.getByRole('button', { name: 'Add a field' }).click();
    await field(2).getByLabel('Label').fill('Email');
    await field(2).getByLabel('Format').selectOption({ label: 'E-mail address' });
    await field(2).getByLabel('Required').check();
    await page.getByRole('button', { name: 'Add a field' }).click();
    await field(3).getByLabel('Type').selectOption({ label: 'Dropdown' });
    await field(3).getByLabel('Label').fill('Topic');
    await field(3).getByLabel('Choices, one per line').fill('Tech\nArt');
    await shot('21-form-editor');
    await page.getByRole('button', { name: 'Save form' }).click();

    // The list gives the form's public address.
    const row = page.locator('tbody tr').filter({ hasText: 'Newsletter sign-up' });
    const address = (await row.getByTestId('public-form-url').textContent()) ?? '';
    expect(address).toMatch(new RegExp(`^${base}/forms/[0-9a-f-]{36}$`));
    await shot('22-forms-list');

    // A flow started by the form, answering with the name given.
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const trigger = await openStep(1);
    await pickApp(trigger, 'Forms');
    await trigger.getByLabel('Trigger event').selectOption({ label: 'New form submission' });
    // The form comes from the app's dynamic data: the user's own forms.
    const formChoice = trigger.getByLabel('Form (required)');
    await expect.poll(() => formChoice.locator('option').allTextContents()).toContain('Newsletter sign-up');
    await formChoice.selectOption({ label: 'Newsletter sign-up' });
    await trigger.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await trigger.getByTestId('form-page-url').textContent()).toBe(address);
    const triggerId = await trigger.getAttribute('data-step-id');
    const action = await openStep(2);
    await pickApp(action, 'Forms');
    await action.getByLabel('Action event').selectOption({ label: 'Respond with' });
    await action.getByLabel('Body (required)').fill(`Welcome, {{step.${triggerId}.your-name}}!`);
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    await action.getByRole('button', { name: 'Saved' }).waitFor();
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Flow name').fill('Greet subscribers');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();

    // A visitor, signed in nowhere, answers on the public page and reads the flow's answer.
    const visitor = await browser.newContext();
    try {
      const form = await visitor.newPage();
      form.setDefaultTimeout(10_000);
      await form.goto(address);
      await form.getByRole('heading', { name: 'Join our <newsletter>' }).waitFor();
      await form.screenshot({ path: join(SCREENSHOTS, '23-public-form.png'), fullPage: true });
      // The browser holds the visitor to the form's rules before anything is sent.
      await form.getByLabel('Email').fill('not an address');
      expect(
        await form
          .getByLabel('Email')
          .evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
      ).toBe(false);
      await form.getByLabel('Your name').fill('Ada <Lovelace>');
      await form.getByLabel('Email').fill('ada@example.com');
      await form.getByLabel('Topic').selectOption('Art');
      await form.getByRole('button', { name: 'Submit' }).click();
      await form.getByRole('status').getByText('Welcome, Ada <Lovelace>!').waitFor();
      await form.screenshot({ path: join(SCREENSHOTS, '24-form-answered.png'), fullPage: true });
    } finally {
      await visitor.close();
    }

    // The run is there, with the answers as its trigger's output.
    await page.getByRole('link', { name: 'Executions', exact: true }).first().click();
    const run = page.locator('tbody tr').filter({ hasText: 'Greet subscribers' });
    await run.filter({ hasText: 'success' }).waitFor();
    await run.getByRole('link', { name: 'Greet subscribers' }).click();
    await expect.poll(() => page.locator('article.step-card').first().textContent()).toContain('ada@example.com');

    // Deleting the form (confirmed) takes its page away.
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No form yet.').waitFor();
    expect((await fetch(address)).status).toBe(404);
  }, 90_000);

  it('builds a flow with paths and a loop in the editor, and shows the branch taken and each iteration of its run', async () => {
    const dialogs: string[] = [];
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    const api = apiAs(await adminToken());
    await page.goto(`${base}/flows`);
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const cards = nodes();
    const canvas = page.getByRole('region', { name: 'Flow canvas' });
    const flowId = page.url().split('/').pop() ?? '';
    const card = panelCard;
    const idOf = async (locator: Locator) => (await locator.getAttribute('data-step-id')) ?? '';

    // A webhook trigger with a sample: a kind and a list of people.
    const trigger = await openStep(1);
    const triggerId = await idOf(trigger);
    await pickApp(trigger, 'Webhook');
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    const webhookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
    const post = (body: unknown) =>
      fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post({ kind: 'vip', people: [{ name: 'ada' }, { name: 'grace' }] });
    await trigger.getByRole('button', { name: 'Test step' }).click();
    await trigger.getByText('Test succeeded.').waitFor();
    const firstAction = await idOf(cards.nth(1));

    // Paths below the trigger: "Branch 1" (a condition to fill in) and the fallback, side by side on
    // the canvas; the new paths step is open in the side panel.
    await trigger.getByRole('button', { name: 'Add paths below' }).click();
    const paths = page.locator('aside.step-panel article.step-paths');
    await paths.waitFor();
    const pathsId = await idOf(paths);
    const branchOne = canvas.getByRole('region', { name: 'Branch: Branch 1' });
    const otherwise = canvas.getByRole('region', { name: 'Branch: Otherwise' });
    await otherwise.getByText('Otherwise: taken when no other branch is.').waitFor();
    await paths.getByLabel('Branches to take').waitFor();
    const [left, right] = [await branchOne.boundingBox(), await otherwise.boundingBox()];
    expect(right && left && right.x > left.x + left.width - 1).toBe(true);

    // Branch 1's condition (its node selected): the trigger's body.kind, picked from the variables,
    // equals "vip"; then a name.
    const branchOneEditor = await openStep(await idOf(branchOne));
    await branchOneEditor.getByRole('button', { name: 'Edit conditions of Branch 1' }).click();
    const conditions = branchOneEditor.getByRole('form', { name: 'Conditions of Branch 1' });
    await conditions.getByRole('button', { name: 'Insert variable into Group 1, condition 1 value to test' }).click();
    await conditions.getByRole('button', { name: 'execution.resumeUrl' }).waitFor();
    await conditions.getByRole('button', { name: /body\.kind/ }).click();
    await conditions.getByLabel('Group 1, condition 1: operator').selectOption({ label: 'equals' });
    await conditions.getByLabel('Group 1, condition 1: compared with').fill('vip');
    await conditions.getByRole('button', { name: 'Save conditions' }).click();
    await branchOne.getByText('When 1. Catch raw webhook › body › kind equals vip.').waitFor();
    await branchOneEditor.getByRole('button', { name: 'Rename the branch Branch 1' }).click();
    await branchOneEditor.getByLabel('Branch name').fill('VIP');
    await branchOneEditor.getByRole('button', { name: 'Save name' }).click();
    const vip = canvas.getByRole('region', { name: 'Branch: VIP' });
    await vip.waitFor();

    // Another branch goes before the fallback; moved right it follows it; deleted, its step goes too.
    const branchOrder = () =>
      canvas
        .getByRole('region', { name: /^Branch: / })
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    await canvas.getByRole('button', { name: 'Add a branch to 2. Paths' }).click();
    const branchThree = canvas.getByRole('region', { name: 'Branch: Branch 3' });
    await branchThree.waitFor();
    expect(await branchOrder()).toEqual(['Branch: VIP', 'Branch: Branch 3', 'Branch: Otherwise']);
    const branchThreeEditor = await openStep(await idOf(branchThree));
    await branchThreeEditor.locator('.branch-header').getByRole('button', { name: /down$/ }).click();
    await expect.poll(branchOrder).toEqual(['Branch: VIP', 'Branch: Otherwise', 'Branch: Branch 3']);
    await branchThreeEditor.getByRole('button', { name: 'Delete the branch Branch 3' }).click();
    await branchThree.waitFor({ state: 'detached' });
    expect(dialogs.at(-1)).toBe('Delete the branch "Branch 3" and the 1 step in it?');
    // Every branch whose conditions hold runs.
    await openStep(pathsId);
    const pathsSettings = paths.locator(':scope > form.arguments');
    await pathsSettings.getByLabel('Branches to take').selectOption({ label: 'Every one that matches' });
    await pathsSettings.getByRole('button', { name: 'Save', exact: true }).click();
    await pathsSettings.getByRole('button', { name: 'Saved' }).waitFor();

    // The VIP branch's step shouts; the fallback's empty step goes.
    const vipStep = await openStep(await idOf(vip.locator('.canvas-node').nth(1)));
    await pickApp(vipStep, 'Formatter');
    await vipStep.getByLabel('Action event').selectOption({ label: 'Text' });
    await vipStep.getByLabel('Transform (required)').selectOption({ label: 'Uppercase' });
    await vipStep.getByLabel('Input', { exact: true }).fill('welcome, vip');
    await vipStep.getByRole('button', { name: 'Save', exact: true }).click();
    await vipStep.getByRole('button', { name: 'Saved' }).waitFor();
    await (await openStep(await idOf(otherwise.locator('.canvas-node').nth(1))))
      .getByRole('button', { name: 'Delete step' })
      .click();
    await otherwise.getByText('No steps in this branch.').waitFor();
    expect(dialogs.at(-1)).toBe('Delete this step?');

    // A loop below the paths, over the people; the first empty action moves into it.
    await (await openStep(pathsId))
      .locator(':scope > footer')
      .getByRole('button', { name: 'Add a loop below' })
      .click();
    const loop = page.locator('aside.step-panel article.step-loop');
    await loop.waitFor();
    const loopId = await idOf(loop);
    const loopSettings = loop.locator(':scope > form.arguments');
    await loopSettings.getByLabel('Items (required)').fill(`{{step.${triggerId}.body.people}}`);
    await loopSettings.getByLabel('At most').fill('5');
    await loopSettings.getByRole('button', { name: 'Save', exact: true }).click();
    await loopSettings.getByRole('button', { name: 'Saved' }).waitFor();
    const moved = await openStep(firstAction);
    const intoLoop = moved.locator('option', { hasText: 'At the start of loop' });
    await moved.getByLabel(/^Move .* to$/).selectOption((await intoLoop.getAttribute('value')) ?? '');
    const body = canvas.getByRole('region', { name: /^Steps inside / });
    await body.locator(`.canvas-node[data-step-id="${firstAction}"]`).waitFor();
    await expect.poll(() => body.locator('.canvas-node').count()).toBe(2);
    // The loop's own empty step goes, and the moved one is first already: up is not offered.
    await (await openStep(await idOf(body.locator('.canvas-node').nth(1))))
      .getByRole('button', { name: 'Delete step' })
      .click();
    await expect.poll(() => body.locator('.canvas-node').count()).toBe(1);
    expect(await (await openStep(firstAction)).getByRole('button', { name: /Move .* up/ }).isDisabled()).toBe(true);

    // Inside the loop, the picker offers the current item and index.
    const inLoop = card(firstAction);
    await pickApp(inLoop, 'Formatter');
    await inLoop.getByLabel('Action event').selectOption({ label: 'Text' });
    await inLoop.getByLabel('Transform (required)').selectOption({ label: 'Uppercase' });
    await inLoop.getByRole('button', { name: 'Insert variable into Input' }).click();
    await inLoop.getByRole('button', { name: /^index / }).waitFor();
    await inLoop.getByRole('button', { name: /^item / }).click();
    const input = inLoop.getByLabel('Input', { exact: true });
    expect(await fieldValue(input)).toBe(`{{step.${loopId}.item}}`);
    await input.fill(`{{step.${loopId}.item.name}}`);
    await inLoop.getByRole('button', { name: 'Save', exact: true }).click();
    await inLoop.getByRole('button', { name: 'Saved' }).waitFor();

    // A step after the loop may read its results.
    await (await openStep(loopId)).locator(':scope > footer').getByRole('button', { name: 'Add a step below' }).click();
    // Trigger, paths, VIP and its step, Otherwise, the loop and its step, and the new one, selected.
    await expect.poll(() => cards.count()).toBe(8);
    const after = card(await idOf(cards.last()));
    await after.waitFor();
    await pickApp(after, 'Formatter');
    await after.getByLabel('Action event').selectOption({ label: 'Text' });
    await after.getByLabel('Transform (required)').selectOption({ label: 'Uppercase' });
    await after.getByRole('button', { name: 'Insert variable into Input' }).click();
    await after.getByRole('button', { name: /^results / }).click();
    expect(await fieldValue(after.getByLabel('Input', { exact: true }))).toBe(`{{step.${loopId}.results}}`);
    await after.getByRole('button', { name: 'Save', exact: true }).click();
    await after.getByRole('button', { name: 'Saved' }).waitFor();
    await shot('21-flow-editor-paths-loop');

    // Published, then run by a webhook: the VIP branch runs, the fallback does not, twice through the loop.
    // Renamed elsewhere meanwhile: the next move is refused as based on an old draft, and said;
    // reloaded, the flow has its new name and the steps their places.
    const afterId = await idOf(after);
    await api('PATCH', `/flows/${flowId}`, { name: 'Branches and loops' });
    await after.getByRole('button', { name: /Move .* up$/ }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'This flow was changed somewhere else' });
    await conflict.getByRole('button', { name: 'Reload the flow' }).click();
    await page.getByRole('heading', { name: 'Branches and loops' }).waitFor();
    await conflict.waitFor({ state: 'detached' });
    expect(await idOf(cards.last())).toBe(afterId);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    expect((await post({ kind: 'vip', people: [{ name: 'ada' }, { name: 'grace' }] })).status).toBe(204);

    await page.getByRole('link', { name: 'Executions', exact: true }).first().click();
    const row = page.locator('tbody tr').filter({ hasText: 'Branches and loops' }).filter({ hasNotText: 'test' });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(150);
      return (await row.filter({ hasText: 'success' }).count()) === 1;
    }, 'the run with paths and a loop to succeed');
    await row.getByRole('link', { name: 'Branches and loops' }).click();
    await page.getByRole('heading', { name: 'Execution of Branches and loops' }).waitFor();
    const ranVip = page.getByRole('region', { name: 'Branch: VIP' });
    await ranVip.getByText('Ran', { exact: true }).waitFor();
    await expect.poll(() => ranVip.textContent()).toContain('WELCOME, VIP');
    await page.getByRole('region', { name: 'Branch: Otherwise' }).getByText('Did not run').waitFor();
    const iterations = page.getByRole('region', { name: /^Iterations of / }).locator('details.iteration');
    await expect.poll(() => iterations.count()).toBe(2);
    expect(await iterations.nth(0).locator('summary').textContent()).toBe('Iteration 1 of 2');
    await expect.poll(() => iterations.nth(0).textContent()).toContain('ADA');
    await expect.poll(() => iterations.nth(1).textContent()).toContain('GRACE');
    // An iteration folds away.
    await iterations.nth(0).locator('summary').click();
    expect(await iterations.nth(0).getAttribute('open')).toBeNull();
    await shot('22-execution-paths-loop');

    // A run that waits (a delay of an hour) shows the step it waits at, in its place, and until when.
    const delayed = await api('POST', '/flows');
    await api('PATCH', `/flows/${delayed.id}`, { name: 'Waits an hour' });
    const [hook, wait] = delayed.steps;
    await api('PATCH', `/steps/${hook.id}`, { appKey: 'webhook', key: 'catchRawWebhook' });
    const delayFor = (amount: number, unit: string) => ({
      appKey: 'delay',
      key: 'delayFor',
      parameters: { delayForUnit: unit, delayForValue: amount },
    });
    await api('PATCH', `/steps/${wait.id}`, delayFor(1, 'hours'));
    const next = await api('POST', `/flows/${delayed.id}/steps`, { previousStepId: wait.id });
    await api('PATCH', `/steps/${next.id}`, delayFor(1, 'minutes'));
    await api('PATCH', `/flows/${delayed.id}/status`, { active: true });
    expect((await fetch(`${base}/webhooks/flows/${delayed.id}`, { method: 'POST' })).status).toBe(204);
    await page.goto(`${base}/executions?flowId=${delayed.id}`);
    const waitingRow = page.locator('tbody tr').filter({ hasText: 'Waits an hour' });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(150);
      return (await waitingRow.filter({ hasText: 'waiting' }).count()) === 1;
    }, 'the delayed run to wait');
    await waitingRow.getByRole('link', { name: 'Waits an hour' }).click();
    const waitingStep = page.getByTestId('waiting-step');
    await waitingStep.getByText('Waiting to run.').waitFor();
    expect(await waitingStep.getByRole('heading', { level: 2 }).textContent()).toMatch(/^3\. /);
    expect(await waitingStep.textContent()).toContain('The run goes on by');
    await expect.poll(() => page.locator('article.step-card').count()).toBe(3);
    await shot('23-execution-waiting');
  }, 120_000);

  it.runIf(redisReachable)(
    'shows a listener trigger’s subscription on the flow: listening, then why it fails',
    async () => {
      const api = apiAs(await adminToken());
      const channel = `console-${Date.now()}`;
      const connection = await api('POST', '/apps/redis/connections', {
        formattedData: { host: '127.0.0.1', port: 6379 },
      });
      const flow = await api('POST', '/flows');
      await api('PATCH', `/flows/${flow.id}`, { name: 'Listens to Redis' });
      const [trigger, action] = flow.steps;
      await api('PATCH', `/steps/${trigger.id}`, {
        appKey: 'redis',
        key: 'newPubSubMessage',
        connectionId: connection.id,
        parameters: { channel },
      });
      await api('PATCH', `/steps/${action.id}`, {
        appKey: 'datastore',
        key: 'setValue',
        parameters: { key: 'last', value: `{{step.${trigger.id}.message}}` },
      });

      await page.goto(`${base}/flows/${flow.id}`);
      await page.getByRole('heading', { name: 'Listens to Redis' }).waitFor();
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const status = page.locator('.listener-status');
      await status.getByText('Listening: each message starts a run.').waitFor({ timeout: 15_000 });
      await shot('24-flow-listening');

      const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
      try {
        await redis.connect();
        await redis.publish(channel, 'hello from redis');
      } finally {
        redis.disconnect();
      }
      await page.goto(`${base}/executions?flowId=${flow.id}`);
      await eventually(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForTimeout(150);
        return (await page.locator('tbody tr').filter({ hasText: 'success' }).count()) === 1;
      }, 'the message’s run');

      // The connection now points at a port where nothing answers: the flow says it is not listening, and why.
      await api('PATCH', `/connections/${connection.id}`, { formattedData: { host: '127.0.0.1', port: 1 } });
      await page.goto(`${base}/flows/${flow.id}`);
      await status.getByText(/Not listening: the subscription failed/).waitFor({ timeout: 20_000 });
      expect(await status.locator('code').textContent()).toMatch(/ECONNREFUSED|refused/i);
      await shot('25-flow-not-listening');
      await page.goto(`${base}/flows`);
      await page.locator('tr', { hasText: 'Listens to Redis' }).getByText('not listening').waitFor();
      await api('PATCH', `/flows/${flow.id}/status`, { active: false });
    },
    60_000,
  );
});
