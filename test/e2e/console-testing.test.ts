import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { DIALECTS } from '../support/databases.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * A step's Test section in Chromium, on both databases: "Listen for a test event" counts down until
 * a webhook the test sends arrives, then shows it as a tree that folds, pages long arrays and turns
 * into raw JSON; publishing says so in a toast.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the console testing suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The console testing suite is SKIPPED. ***\n\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf('missing' in browserAvailable)('testing a step in the console', () => {
  let assets: string;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assets = mkdtempSync(join(tmpdir(), 'conveyor-testing-console-'));
    await buildConsole(assets);
    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(assets, { recursive: true, force: true });
  });

  describe.each(DIALECTS)('on %s', (dialect) => {
    let instance: TestInstance;
    let token: string;
    let base: string;
    let page: Page;
    const closers: Array<() => Promise<unknown>> = [];

    const api = async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await instance.request(method, path, { token, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return (res.body as { data: unknown } | null)?.data;
    };

    beforeAll(async () => {
      instance = await startTestInstance(dialect, { WEB_CONSOLE_DIR: assets });
      closers.push(() => instance.close());
      token = await installAndSignIn(instance);
      const served = await listen(instance);
      closers.push(() => served.close());
      base = served.url;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      closers.push(() => context.close());
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${base}/login`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Flows' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      for (const close of closers.splice(0).reverse()) await close();
    });

    it('listens for a webhook, shows it as a tree and as raw JSON, and says when the flow is published', async () => {
      const flow = await api('POST', '/flows');
      await api('PATCH', `/flows/${flow.id}`, { name: 'Listens' });
      const [hook, action] = flow.steps;
      await api('PATCH', `/steps/${hook.id}`, { appKey: 'webhook', key: 'catchRawWebhook' });
      await api('PATCH', `/steps/${action.id}`, {
        appKey: 'formatter',
        key: 'text',
        parameters: { transform: 'uppercase', input: `{{step.${hook.id}.body.name}}` },
      });
      // The trigger selected on the canvas (by the address): its editor in the side panel.
      await page.goto(`${base}/flows/${flow.id}?step=${hook.id}`);
      const trigger = page.locator(`aside.step-panel [data-step-id="${hook.id}"]`);

      // Cancel ends the wait, and says so.
      await trigger.getByRole('button', { name: 'Listen for a test event' }).click();
      await trigger.getByRole('timer').waitFor();
      await trigger.getByRole('button', { name: 'Cancel' }).click();
      await trigger.getByText('Stopped listening.').waitFor();
      await trigger.getByRole('timer').waitFor({ state: 'detached' });

      // Listening: the countdown runs until the request the test sends arrives.
      await trigger.getByRole('button', { name: 'Listen for a test event' }).click();
      const timer = trigger.getByRole('timer');
      await timer.waitFor();
      expect(await timer.textContent()).toMatch(/^[01]:\d\d$/);
      const items = Array.from({ length: 120 }, (_, index) => index);
      const send = () =>
        fetch(`${base}/webhooks/flows/${flow.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'ada lovelace', address: { city: 'London' }, items }),
        });
      // The countdown moves (polled: a loaded machine may render its tick late).
      await expect.poll(() => timer.textContent(), { timeout: 10_000 }).not.toBe('1:00');
      while ((await timer.count()) > 0) {
        await send();
        await sleep(700);
      }
      await trigger.getByText('Test succeeded.').waitFor();
      const tree = trigger.locator('.json-tree');
      await tree.getByText('"ada lovelace"').waitFor();

      // Folding: a branch's button says whether it is open, and the keyboard works it.
      const body = tree.getByRole('button', { name: /^body: \{3 keys\}/ });
      expect(await body.getAttribute('aria-expanded')).toBe('true');
      await body.click();
      expect(await body.getAttribute('aria-expanded')).toBe('false');
      await tree.getByText('"ada lovelace"').waitFor({ state: 'detached' });
      await body.focus();
      await page.keyboard.press('Enter');
      expect(await body.getAttribute('aria-expanded')).toBe('true');
      await tree.getByText('"ada lovelace"').waitFor();

      // A long array shows a page at a time.
      const list = tree.getByRole('button', { name: /^items: \[120 items\]/ });
      expect(await list.getAttribute('aria-expanded')).toBe('true');
      const more = tree.getByRole('button', { name: 'Show 50 more (70 not shown)' });
      await more.waitFor();
      await trigger.screenshot({ path: join(SCREENSHOTS, 'testing-step-1280.png') });
      await more.click();
      await tree.getByRole('button', { name: 'Show 20 more (20 not shown)' }).click();
      await tree.locator('.json-number', { hasText: /^119$/ }).waitFor();
      expect(await tree.getByRole('button', { name: /more/ }).count()).toBe(0);

      // Raw JSON, and back.
      await trigger.getByRole('button', { name: 'Raw JSON' }).click();
      const raw = trigger.locator('pre.json');
      expect(await raw.textContent()).toContain('"name": "ada lovelace"');
      expect(await trigger.getByRole('button', { name: 'Raw JSON' }).getAttribute('aria-pressed')).toBe('true');
      await trigger.getByRole('button', { name: 'Copy JSON' }).click();
      await trigger.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toContain('"city": "London"');
      await trigger.getByRole('button', { name: 'Tree' }).click();
      await raw.waitFor({ state: 'detached' });

      // On a phone.
      await page.setViewportSize({ width: 390, height: 844 });
      await trigger.getByRole('button', { name: 'Listen for a test event' }).scrollIntoViewIfNeeded();
      await trigger.screenshot({ path: join(SCREENSHOTS, 'testing-step-390.png') });
      await page.setViewportSize({ width: 1280, height: 900 });

      // The action's test uses the trigger's output: the flow is complete, and publishing says so.
      await page.locator(`.canvas-node[data-step-id="${action.id}"] button.node-button`).click();
      const actionCard = page.locator(`aside.step-panel [data-step-id="${action.id}"]`);
      await actionCard.getByRole('button', { name: 'Test step' }).click();
      await actionCard.getByText('Test succeeded.').waitFor();
      await actionCard.locator('.json-tree').getByText('"ADA LOVELACE"').waitFor();
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const toasts = page.locator('.toasts');
      expect(await toasts.getAttribute('aria-live')).toBe('polite');
      await toasts.getByText('Flow published.').waitFor();
      await page.getByRole('button', { name: 'Unpublish' }).waitFor();
      await toasts.getByRole('button', { name: 'Dismiss' }).first().click();
      await toasts.getByText('Flow published.').waitFor({ state: 'detached' });

      // A live flow says its steps are editable as a draft; a change saves, and the draft's publish toasts its version.
      await page.getByText('Version 1 is live. What you change below is saved as a draft').waitFor();
      const input = actionCard.getByLabel('Input', { exact: true });
      await input.fill(`{{step.${hook.id}.address.city}}`);
      await actionCard.getByRole('button', { name: 'Save', exact: true }).click();
      await actionCard.getByRole('button', { name: 'Saved' }).waitFor();
      const banner = page.getByRole('region', { name: 'Draft' });
      await banner.getByText('Published version 1 is live. You are editing a draft.').waitFor();
      await banner.getByRole('button', { name: 'Publish changes' }).click();
      await banner.getByRole('button', { name: 'Publish version 2' }).click();
      await toasts.getByText('Version 2 is live.').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'testing-toast-1280.png') });
    }, 120_000);
  });
});
