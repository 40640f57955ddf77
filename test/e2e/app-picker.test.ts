import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CATEGORY_LABELS } from '../../adapters/web/console/src/app-categories.js';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * The app picker and the app pages in Chromium, against the built-in apps, whichever they are: what
 * the picker lists is counted against GET /api/v1/apps and its filters.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the app picker suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The app picker suite is SKIPPED. ***\n\n`);
}

interface ListedApp {
  key: string;
  name: string;
  description: string;
  categories: (keyof typeof APP_CATEGORY_LABELS)[];
  supportsConnections: boolean;
}
interface ListedStep {
  name: string;
  description: string;
  type?: string;
}

/** The apps that paths and loops are: the editor adds them as such, never from the picker. */
const STRUCTURAL = ['branches', 'loop'];
const TRIGGER_KINDS: Record<string, string> = {
  webhook: 'Webhook',
  polling: 'Polling',
  schedule: 'Schedule',
  listener: 'Listener',
};

describe.skipIf('missing' in browserAvailable)('the app picker and app pages in Chromium', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  let instance: TestInstance;
  let token: string;
  let base: string;
  let browser: Browser;
  let page: Page;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await instance.request(method, path, { token, body });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.body.data as T;
  };
  const names = (apps: readonly { name: string }[]) => apps.map((app) => app.name).sort();
  /** What the console's search promises: every word in the name, key or description, in any case. */
  const matching = (apps: readonly ListedApp[], search: string) =>
    apps.filter((app) => `${app.name} ${app.key} ${app.description}`.toLowerCase().includes(search.toLowerCase()));
  const pickable = (apps: readonly ListedApp[]) => apps.filter((app) => !STRUCTURAL.includes(app.key));
  const entriesOf = (picker: Locator) => picker.locator('.app-entry-name');
  const shownNames = async (picker: Locator) => (await entriesOf(picker).allTextContents()).sort();
  const searchOf = (picker: Locator) => picker.getByRole('searchbox', { name: 'Search apps' });
  /** What has the keyboard's focus: the app entry's name, or the search box's text (else null). */
  const focused = (what: 'name' | 'search') =>
    page.evaluate<string | null>(
      what === 'name'
        ? "document.activeElement?.querySelector('.app-entry-name')?.textContent ?? null"
        : "document.activeElement?.type === 'search' ? document.activeElement.value : null",
    );
  /** Selects the flow editor's step at `position` on the canvas (1: the trigger); its editor in the side panel. */
  const openStep = async (position: number) => {
    const node = page.locator('.canvas-node').nth(position - 1);
    const id = await node.getAttribute('data-step-id');
    await node.locator('button.node-button').click();
    const editor = page.locator(`aside.step-panel article.step-card[data-step-id="${id}"]`);
    await editor.waitFor();
    return editor;
  };
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `picker-${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const assets = mkdtempSync(join(tmpdir(), 'conveyor-picker-console-'));
    cleanups.push(() => rmSync(assets, { recursive: true, force: true }));
    await buildConsole(assets);
    // The licence shows the administration's app settings, one of the places that pick an app.
    instance = await startTestInstance('sqlite', { WEB_CONSOLE_DIR: assets, ...enterpriseEnv() });
    cleanups.push(() => instance.close());
    token = await installAndSignIn(instance);
    const served = await listen(instance);
    cleanups.push(() => served.close());
    base = served.url;

    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
    cleanups.push(() => browser.close());
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
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

  it('picks a step’s app by search, category and keyboard, and says when nothing matches', async () => {
    const flow = await api<{ id: string; name: string }>('POST', '/flows');
    await page.goto(`${base}/flows/${flow.id}`);
    const trigger = await openStep(1);
    const picker = trigger.locator('.app-picker');
    const search = searchOf(picker);

    // Every app that can start a flow, with its icon, and the chips of the categories they fill.
    const withTriggers = pickable(await api<ListedApp[]>('GET', '/apps?onlyWithTriggers=true'));
    await expect.poll(() => shownNames(picker)).toEqual(names(withTriggers));
    await picker.getByText(`${withTriggers.length} of ${withTriggers.length} apps`).waitFor();
    expect(await picker.locator('img.app-icon').count()).toBe(withTriggers.length);
    const webhook = picker.getByRole('button', { name: 'Webhook', exact: true });
    expect(await webhook.locator('img').getAttribute('src')).toBe('/apps/webhook/assets/favicon.svg');
    const used = new Set(withTriggers.flatMap((app) => app.categories));
    const chipLabels = (Object.keys(APP_CATEGORY_LABELS) as (keyof typeof APP_CATEGORY_LABELS)[])
      .filter((category) => used.has(category))
      .map((category) => APP_CATEGORY_LABELS[category]);
    const chipGroup = picker.getByRole('group', { name: 'Categories' });
    expect(await chipGroup.locator('label').allTextContents()).toEqual(['All', ...chipLabels]);
    const chips = chipGroup.getByRole('radio');
    expect(await chips.first().isChecked()).toBe(true);
    await shot('1-trigger');

    // Typing narrows the list at once: name, key or description, in any case.
    await search.fill('PoSt');
    await expect.poll(() => shownNames(picker)).toEqual(names(matching(withTriggers, 'post')));
    expect(await shownNames(picker)).toContain('PostgreSQL');
    // A chip keeps to its category, with the search.
    await picker.getByRole('radio', { name: 'Data & databases' }).click();
    const databases = await api<ListedApp[]>('GET', '/apps?onlyWithTriggers=true&category=data-and-databases');
    await expect.poll(() => shownNames(picker)).toEqual(names(matching(pickable(databases), 'post')));
    await search.fill('');
    await expect.poll(() => shownNames(picker)).toEqual(names(pickable(databases)));
    expect(await shownNames(picker)).toEqual(expect.arrayContaining(['PostgreSQL', 'Redis']));
    await shot('2-category');

    // Nothing matches: it says so, and offers every category again.
    await search.fill('no app is called this');
    await picker.getByText('No app matches “no app is called this” in Data & databases.').waitFor();
    expect(await entriesOf(picker).count()).toBe(0);
    await picker.getByRole('button', { name: 'Search all categories' }).click();
    await picker.getByText('No app matches “no app is called this”.').waitFor();
    expect(await chips.first().isChecked()).toBe(true);

    // The keyboard: type, ↓ into the list, ↑ back, Tab to the chips (arrows choose one), Enter picks.
    await search.fill('');
    await search.focus();
    await page.keyboard.type('webhook');
    await expect.poll(() => shownNames(picker)).toEqual(names(matching(withTriggers, 'webhook')));
    await page.keyboard.press('ArrowDown');
    expect(await focused('name')).toBe('Webhook');
    await page.keyboard.press('ArrowUp');
    expect(await focused('search')).toBe('webhook');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    expect(await chips.nth(1).isChecked()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await chips.first().isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused('name')).toBe('Webhook');
    // Typing in the list goes on with the search.
    await page.keyboard.type('s');
    expect(await search.inputValue()).toBe('webhooks');
    await search.fill('webhook');
    await page.keyboard.press('Enter');

    // Chosen: the app, its page, and its events.
    await trigger.getByRole('button', { name: 'Change app' }).waitFor();
    await trigger.getByLabel('Trigger event').selectOption({ label: 'Catch raw webhook' });
    await trigger.getByTestId('webhook-url').waitFor();
    expect((await api<{ steps: { appKey: string }[] }>('GET', `/flows/${flow.id}`)).steps[0]?.appKey).toBe('webhook');
    // Changing the app opens the picker on the search; Escape keeps the app.
    await trigger.getByRole('button', { name: 'Change app' }).click();
    await expect.poll(() => focused('search')).toBe('');
    await page.keyboard.press('Escape');
    await trigger.getByRole('button', { name: 'Change app' }).waitFor();
    await trigger.getByTestId('webhook-url').waitFor();

    // The action's picker offers the apps with actions.
    const withActions = pickable(await api<ListedApp[]>('GET', '/apps?onlyWithActions=true'));
    const actionPicker = (await openStep(2)).locator('.app-picker');
    await expect.poll(() => shownNames(actionPicker)).toEqual(names(withActions));
    await shot('3-chosen');

    // The chosen app's page, opened beside the editor, lists the flow that uses it.
    await openStep(1);
    const opened = page.context().waitForEvent('page');
    await trigger.getByRole('link', { name: 'About Webhook' }).click();
    const about = await opened;
    await about.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();
    await about.getByRole('navigation', { name: 'About Webhook' }).getByRole('link', { name: 'Flows' }).click();
    await about.getByRole('link', { name: flow.name }).waitFor();
    await about.close();
  }, 90_000);

  it('opens an app’s page from the connections page’s picker, with its triggers, actions and connections', async () => {
    await page.goto(`${base}/connections`);
    const picker = page.locator('.app-picker');
    const all = await api<ListedApp[]>('GET', '/apps');
    const connecting = all.filter((app) => app.supportsConnections);
    await expect.poll(() => shownNames(picker)).toEqual(names(connecting));
    const databases = connecting.filter((app) => app.categories.includes('data-and-databases'));
    await picker.getByRole('radio', { name: APP_CATEGORY_LABELS['data-and-databases'] }).click();
    await expect.poll(() => shownNames(picker)).toEqual(names(databases));
    await searchOf(picker).fill('postgres');
    await expect.poll(() => shownNames(picker)).toEqual(names(matching(databases, 'postgres')));
    await picker.getByRole('link', { name: 'PostgreSQL', exact: true }).click();

    // Its connections, as the connections page showed them.
    await page.waitForURL(`${base}/app/postgresql/connections`);
    await page.getByText('No PostgreSQL connection yet.').waitFor();
    await page.getByRole('button', { name: 'Add connection' }).click();
    await page.getByRole('form', { name: 'Connect PostgreSQL' }).waitFor();
    // The old address of an app's connections leads here.
    await page.goto(`${base}/connections/postgresql`);
    await page.waitForURL(`${base}/app/postgresql/connections`);

    // What the app is and what it does: each trigger with how it starts a flow, each action.
    for (const key of ['postgresql', 'github', 'redis']) {
      const app = all.find((listed) => listed.key === key);
      if (!app) throw new Error(`no ${key} app`);
      await page.goto(`${base}/app/${key}`);
      await page.getByRole('heading', { name: app.name, level: 1 }).waitFor();
      await page.locator('.app-summary').getByText(app.description, { exact: true }).waitFor();
      for (const category of app.categories) {
        await page.locator('.app-summary').getByText(APP_CATEGORY_LABELS[category], { exact: true }).waitFor();
      }
      expect(await page.locator('.app-summary img.app-icon').getAttribute('src')).toBe(
        `/apps/${key}/assets/favicon.svg`,
      );
      const triggers = await api<ListedStep[]>('GET', `/apps/${key}/triggers`);
      const actions = await api<ListedStep[]>('GET', `/apps/${key}/actions`);
      const triggerList = page.getByRole('region', { name: `Triggers (${triggers.length})` });
      const actionList = page.getByRole('region', { name: `Actions (${actions.length})` });
      for (const trigger of triggers) {
        const item = triggerList
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: trigger.name, exact: true }) });
        await item.getByText(trigger.description, { exact: true }).waitFor();
        const kind = trigger.type ? TRIGGER_KINDS[trigger.type] : 'Started by Conveyor';
        expect(await item.locator('.tag').textContent(), trigger.name).toBe(kind);
      }
      for (const action of actions) {
        const item = actionList
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: action.name, exact: true }) });
        await item.getByText(action.description, { exact: true }).waitFor();
      }
      expect(await triggerList.getByRole('listitem').count()).toBe(triggers.length);
      expect(await actionList.getByRole('listitem').count()).toBe(actions.length);
      await shot(`4-${key}`);
    }
    await page.goto(`${base}/app/github`);
    await page.getByText('Sign in with GitHub (OAuth 2), in a window it opens.').waitFor();
  }, 90_000);

  it('picks the app an administrator configures', async () => {
    await page.goto(`${base}/admin/apps`);
    const picker = page.locator('.app-picker');
    await expect.poll(() => shownNames(picker)).toEqual(names(await api<ListedApp[]>('GET', '/apps')));
    await searchOf(picker).fill('github');
    await searchOf(picker).press('Enter');
    const card = page.getByRole('region', { name: 'GitHub' });
    await card.getByRole('form', { name: 'Settings of GitHub' }).waitFor();
    await card.getByRole('heading', { name: 'OAuth clients' }).waitFor();
    await card.getByRole('button', { name: 'Choose another app' }).click();
    await searchOf(picker).waitFor();
  }, 60_000);
});
