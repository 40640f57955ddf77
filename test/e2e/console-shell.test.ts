import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/engine-flows.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { ADMIN, signIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * The console's shell in Chromium (issue 25): a new user's first run (the empty flows page, the
 * template gallery, a flow made and opened), the menu on a phone, no page wider than a phone's
 * screen, axe-core finding no serious or critical violation, and a flow made with the keyboard only.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the console shell suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The console shell suite is SKIPPED. ***\n\n`);
}

/** The console, built once for both databases. */
let built: Promise<string> | null = null;
const consoleAssets = () => {
  built ??= (async () => {
    const assets = mkdtempSync(join(tmpdir(), 'conveyor-shell-console-'));
    await buildConsole(assets);
    return assets;
  })();
  return built;
};
afterAll(async () => {
  if (built) rmSync(await built, { recursive: true, force: true });
});

/** axe-core's serious and critical violations on the page as it is, each as `rule: target, …`. */
const seriousViolations = async (page: Page): Promise<string[]> => {
  await page.addScriptTag({ path: AXE });
  // The test's TypeScript has no DOM types: what runs in the page is given as its source.
  const violations = await page.evaluate<{ id: string; impact: string; targets: string[] }[]>(`
    axe.run(document).then((result) =>
      result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })),
    )`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
};

/** What sticks out past the right edge of a page as wide as a phone; empty when nothing does. */
const overflowAt390 = (page: Page) =>
  page.evaluate<string[]>(`(() => {
    const width = 390;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.parentElement.closest('.table-scroll, pre, .json'))
      .slice(0, 5)
      .map((e) => e.tagName.toLowerCase() + '.' + e.className + ' (' + Math.round(e.getBoundingClientRect().right) + 'px)');
  })()`);
/** Whether the focus is inside a dialog. */
const focusInDialog = (page: Page) => page.evaluate<boolean>(`document.activeElement?.closest('dialog') != null`);
/** The focused element's text. */
const focusedText = (page: Page) => page.evaluate<string>(`document.activeElement?.textContent?.trim() ?? ''`);

describe.skipIf('missing' in browserAvailable).each(DIALECTS)('the console shell in Chromium (%s)', (dialect) => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  let instance: TestInstance;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;

  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await instance.request(method, path, { token, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return (res.body as { data: unknown } | null)?.data;
  };
  /** A published flow, webhook → `action`, and its first run once it has succeeded. */
  const publishedRun = async (name: string, action: object) => {
    const flow = await api('POST', '/flows');
    await api('PATCH', `/flows/${flow.id}`, { name });
    await api('PATCH', `/steps/${flow.steps[0].id}`, { appKey: 'webhook', key: 'catchRawWebhook' });
    await api('PATCH', `/steps/${flow.steps[1].id}`, action);
    await api('PATCH', `/flows/${flow.id}/status`, { active: true });
    expect((await fetch(`${base}/webhooks/flows/${flow.id}`, { method: 'POST' })).status).toBe(204);
    const [run] = await eventually(
      () => api('GET', `/executions?flowId=${flow.id}`),
      (runs) => runs[0]?.status === 'success',
      15_000,
    );
    return { flow, run };
  };
  const shot = (on: Page, name: string, width: number) =>
    on.screenshot({ path: join(SCREENSHOTS, `shell-${name}-${width}.png`), fullPage: true });

  /**
   * One page at 1280 and 390 px: screenshots at both, nothing wider than the phone, and no serious or
   * critical axe violation at either width. `ready` waits until the page shows its content.
   */
  const checkPage = async (on: Page, name: string, ready: (on: Page) => Promise<unknown>) => {
    for (const size of [DESKTOP, PHONE]) {
      await on.setViewportSize(size);
      await ready(on);
      await shot(on, name, size.width);
      const problems = [
        ...(size.width === PHONE.width
          ? (await overflowAt390(on)).map((wide) => `wider than the screen: ${wide}`)
          : []),
        ...(await seriousViolations(on)),
      ];
      if (problems.length > 0) throw new Error(`${name} at ${size.width} px: ${problems.join('; ')}`);
    }
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const assets = await consoleAssets();
    instance = await startTestInstance(dialect, { ...enterpriseEnv(), WEB_CONSOLE_DIR: assets });
    cleanups.push(() => instance.close());
    const served = await listen(instance);
    cleanups.push(() => served.close());
    base = served.url;
    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
    cleanups.push(() => browser.close());
    context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 240_000);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('installs: the installation page fits a phone and passes axe', async () => {
    await page.goto(base);
    await checkPage(page, 'installation', (on) => on.getByRole('button', { name: 'Create administrator' }).waitFor());
    await page.setViewportSize(DESKTOP);
    await page.getByLabel('Full name').fill(ADMIN.fullName);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Flows', exact: true }).waitFor();
    token = await signIn(instance, ADMIN.email, ADMIN.password);
  }, 60_000);

  it("walks a new user's first run: empty state, gallery, a flow made and opened", async () => {
    await page.goto(`${base}/flows`);
    const empty = page.locator('.first-run');
    await empty.getByText('No flows yet.').waitFor();
    await checkPage(page, 'flows-empty', (on) => on.getByRole('button', { name: 'Start from a template' }).waitFor());
    await page.setViewportSize(DESKTOP);

    // The gallery is a modal dialog: focus goes in, Escape closes it and gives the focus back.
    const opener = empty.getByRole('button', { name: 'Start from a template' });
    await opener.click();
    const gallery = page.getByRole('dialog', { name: 'Start from a template' });
    await gallery.getByRole('heading', { name: 'Route webhooks two ways' }).waitFor();
    expect(await focusInDialog(page)).toBe(true);
    await checkPage(page, 'template-gallery', (on) =>
      on.getByRole('button', { name: 'Use this template: E-mail each form submission' }).waitFor(),
    );
    await page.setViewportSize(DESKTOP);
    await page.keyboard.press('Escape');
    await gallery.waitFor({ state: 'detached' });
    expect(await focusedText(page)).toBe('Start from a template');

    await opener.click();
    await gallery.getByRole('button', { name: 'Use this template: Forward webhooks to an HTTP endpoint' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    await page.locator('.canvas-node').first().waitFor();
    const flows = await api('GET', '/flows');
    expect(flows.map((f: { name: string }) => f.name)).toEqual(['Forward webhooks to an HTTP endpoint']);
    expect(page.url()).toBe(`${base}/flows/${flows[0].id}`);
    const steps = (await api('GET', `/flows/${flows[0].id}`)).steps;
    expect(steps.map((s: { appKey: string }) => s.appKey)).toEqual(['webhook', 'http-request']);
  }, 90_000);

  it('folds the navigation into a menu on a phone', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${base}/flows`);
    const menu = page.getByRole('button', { name: 'Menu' });
    const executions = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Executions' });
    await menu.waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await executions.isVisible()).toBe(false);

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await executions.waitFor();
    await shot(page, 'menu-open', PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    // Escape closes it and leaves the focus on its button.
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await focusedText(page)).toBe('Menu');

    // Choosing a page closes it.
    await menu.click();
    await executions.click();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await executions.isVisible()).toBe(false);

    // On a wide screen there is no menu button: the navigation is always there.
    await page.setViewportSize(DESKTOP);
    expect(await menu.isVisible()).toBe(false);
    expect(await executions.isVisible()).toBe(true);
  }, 60_000);

  it('makes a flow with the keyboard only, from the skip link to the editor', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${base}/flows`);
    await page.getByRole('heading', { name: 'Flows', exact: true }).waitFor();
    const focused = () =>
      page.evaluate<{ text: string; tag: string; outline: string }>(`(() => {
        const e = document.activeElement;
        return { text: e?.getAttribute('aria-label') ?? e?.textContent?.trim() ?? '', tag: e?.tagName ?? '', outline: e ? getComputedStyle(e).outlineStyle : '' };
      })()`);
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ text: 'Skip to content', tag: 'A' });
    expect((await focused()).outline).not.toBe('none');
    await page.keyboard.press('Enter');
    expect((await focused()).tag).toBe('MAIN');

    /** Tabs forward until the focused element's text is `text`. */
    const tabTo = async (text: string) => {
      for (let presses = 0; presses < 60; presses += 1) {
        await page.keyboard.press('Tab');
        const now = await focused();
        if (now.text === text) {
          expect(now.outline, `focus outline on ${text}`).not.toBe('none');
          return;
        }
      }
      throw new Error(`no focusable “${text}” within 60 presses of Tab`);
    };
    await tabTo('Templates');
    await page.keyboard.press('Enter');
    const gallery = page.getByRole('dialog', { name: 'Start from a template' });
    await gallery.getByRole('heading', { name: 'Route webhooks two ways' }).waitFor();
    // Tab stays inside the dialog.
    await tabTo('Use this template: Route webhooks two ways');
    expect(await focusInDialog(page)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    await page.locator('.canvas-node').first().waitFor();
    const made = (await api('GET', '/flows')).find((f: { name: string }) => f.name === 'Route webhooks two ways');
    expect(page.url()).toBe(`${base}/flows/${made.id}`);
  }, 60_000);

  it('fits every main page on a phone and passes axe on each', async () => {
    // A run to show, and a form, an agent and an MCP server for their pages.
    const { flow, run } = await publishedRun('Shouts what it hears', {
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input: 'hello' },
    });

    const heading = (name: string) => (on: Page) => on.getByRole('heading', { name, exact: true }).first().waitFor();
    const pages: Array<[string, string, (on: Page) => Promise<unknown>]> = [
      ['flows', '/flows', (on) => on.getByRole('link', { name: 'Shouts what it hears' }).waitFor()],
      ['flow-editor', `/flows/${flow.id}`, (on) => on.locator('.canvas-node').first().waitFor()],
      ['executions', '/executions', (on) => on.getByText('Shouts what it hears').first().waitFor()],
      ['execution', `/executions/${run.id}`, heading('Execution of Shouts what it hears')],
      ['connections', '/connections', heading('Connections')],
      ['agents', '/agents', heading('Agents')],
      ['mcp-servers', '/mcp-servers', heading('MCP servers')],
      ['forms', '/form-entities', heading('Forms')],
      ['profile', '/profile', heading('Your profile')],
      ['admin-users', '/admin/users', heading('Users')],
      ['admin-settings', '/admin/settings', heading('Settings and licence')],
    ];
    const failures: string[] = [];
    for (const [name, path, ready] of pages) {
      await page.setViewportSize(DESKTOP);
      await page.goto(`${base}${path}`);
      await checkPage(page, name, ready).catch((error: Error) => failures.push(`${name}: ${error.message}`));
    }

    // The sign-in page, for a visitor without a session.
    const visitor = await browser.newPage({ viewport: DESKTOP });
    await visitor.goto(`${base}/login`);
    await checkPage(visitor, 'sign-in', (on) => on.getByRole('button', { name: 'Sign in' }).waitFor()).catch(
      (error: Error) => failures.push(`sign-in: ${error.message}`),
    );
    await visitor.close();
    if (failures.length > 0) throw new Error(failures.join('\n'));
  }, 240_000);

  it("fits the admin pages, an app's, an agent's, an MCP server's and a flow's history and datastore on a phone, and passes axe on each", async () => {
    // A published flow that stored a value, a template made of it, an API token, an agent and an MCP server.
    const { flow } = await publishedRun('Remembers who called', {
      appKey: 'datastore',
      key: 'setValue',
      parameters: { key: 'caller/last-one-with-a-rather-long-key-name', value: 'Ada Lovelace' },
    });
    // A draft that differs from version 1, for the history's comparison.
    await api('PATCH', `/steps/${flow.steps[1].id}`, {
      parameters: { key: 'caller/last-one-with-a-rather-long-key-name', value: 'Grace Hopper' },
    });
    await api('POST', '/admin/templates', { name: 'Remember the caller', flowId: flow.id });
    await api('POST', '/admin/api-tokens');
    const agent = await api('POST', '/agents', { name: 'Concierge', description: 'Books rooms.' });
    const server = await api('POST', '/mcp-servers', { name: 'Office tools' });

    const heading = (name: string) => (on: Page) => on.getByRole('heading', { name, exact: true }).first().waitFor();
    /** Clicks `button` unless what it opens is shown already: each page is checked at two widths. */
    const open = (button: string, opened: (on: Page) => Locator) => async (on: Page) => {
      if (!(await opened(on).first().isVisible()))
        await on.getByRole('button', { name: button, exact: true }).first().click();
      await opened(on).first().waitFor();
    };
    const pages: Array<[string, string, (on: Page) => Promise<unknown>]> = [
      ['admin-roles', '/admin/roles', open('New role', (on) => on.getByLabel('Name'))],
      ['admin-saml', '/admin/saml', open('New provider', (on) => on.getByLabel('Certificate'))],
      ['admin-apps', '/admin/apps', open('GitHub', (on) => on.getByRole('button', { name: 'Add OAuth client' }))],
      ['admin-templates', '/admin/templates', (on) => on.getByText('Remember the caller').first().waitFor()],
      ['admin-api-tokens', '/admin/api-tokens', heading('API tokens')],
      ['app', '/app/github', (on) => on.getByRole('heading', { name: /^Actions/ }).waitFor()],
      ['app-connections', '/app/github/connections', heading('GitHub')],
      ['agent', `/agents/${agent.id}`, heading('Concierge')],
      ['agent-settings', `/agents/${agent.id}/settings`, (on) => on.getByRole('button', { name: 'Save' }).waitFor()],
      ['agent-runs', `/agents/${agent.id}/executions`, heading('Concierge')],
      ['mcp-server', `/mcp-servers/${server.id}`, heading('Office tools')],
      ['mcp-server-connect', `/mcp-servers/${server.id}/connect`, heading('Office tools')],
      [
        'flow-history',
        `/flows/${flow.id}`,
        async (on) => {
          await open('History', (at) => at.getByRole('heading', { name: 'Version history' }))(on);
          await open('Compare version 1', (at) => at.getByText('Changed steps'))(on);
        },
      ],
      ['datastore', `/flows/${flow.id}/datastore`, (on) => on.locator('.datastore-key').first().waitFor()],
    ];
    const failures: string[] = [];
    for (const [name, path, ready] of pages) {
      await page.setViewportSize(DESKTOP);
      await page.goto(`${base}${path}`);
      await checkPage(page, name, ready).catch((error: Error) => failures.push(`${name}: ${error.message}`));
    }
    if (failures.length > 0) throw new Error(failures.join('\n'));
  }, 300_000);
});
