import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { DIALECTS } from '../support/databases.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * "Your first flow" in Chromium, on both databases: a new user's flow started from scratch shows a
 * checklist that ticks itself as the trigger is chosen and tested, an action added and tested, and
 * goes once the flow is published; hidden, it stays hidden.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the console guide suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The console guide suite is SKIPPED. ***\n\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const pickApp = async (editor: Locator, name: string) => {
  await editor.getByRole('searchbox', { name: 'Search apps' }).fill(name);
  await editor.getByRole('button', { name, exact: true }).click();
};

describe.skipIf('missing' in browserAvailable)('the first-flow guide in the console', () => {
  let assets: string;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assets = mkdtempSync(join(tmpdir(), 'conveyor-guide-console-'));
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
    const guide = () => page.getByRole('region', { name: 'Your first flow' });
    /** The items as a screen reader reads them: each says whether it is done. */
    const items = () => guide().getByRole('listitem').locator('.first-flow-title').allTextContents();
    const panel = (stepId: string) => page.locator(`aside.step-panel [data-step-id="${stepId}"]`);
    const selectedInUrl = () => new URL(page.url()).searchParams.get('step');
    const noSideScroll = () =>
      page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

    beforeAll(async () => {
      instance = await startTestInstance(dialect, { WEB_CONSOLE_DIR: assets });
      closers.push(() => instance.close());
      token = await installAndSignIn(instance);
      const served = await listen(instance);
      closers.push(() => served.close());
      base = served.url;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      closers.push(() => context.close());
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

    it('ticks each item as the first flow is built, tested and published, then goes', async () => {
      await page.getByText('No flows yet.').waitFor();
      await page.getByRole('button', { name: 'Start from scratch' }).click();
      await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
      const flowId = page.url().split('/').pop() ?? '';
      const flow = await api('GET', `/flows/${flowId}`);
      const [hook, action] = flow.steps as { id: string }[] as [{ id: string }, { id: string }];

      await guide().getByText('0 of 5 done').waitFor();
      expect(await guide().getByRole('heading', { name: 'Your first flow' }).count()).toBe(1);
      expect(await items()).toEqual([
        'Not done: Choose a trigger',
        'Not done: Test the trigger',
        'Not done: Add an action',
        'Not done: Test the action',
        'Not done: Publish',
      ]);

      // 1. The guide's button (from the keyboard) opens the trigger in the side panel; the Webhook app's one trigger comes with it.
      await guide().getByRole('button', { name: 'Choose the trigger' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(selectedInUrl).toBe(hook.id);
      const trigger = panel(hook.id);
      await pickApp(trigger, 'Webhook');
      await trigger.getByTestId('webhook-url').waitFor();
      await guide().getByText('1 of 5 done').waitFor();
      expect((await items())[0]).toBe('Done: Choose a trigger');
      expect(await guide().getByRole('button', { name: 'Choose the trigger' }).count()).toBe(0);

      // 2. Listening, a webhook the test sends arrives: the trigger is tested.
      await page.getByRole('button', { name: 'Close the step panel' }).click();
      await guide().getByRole('button', { name: 'Test the trigger' }).click();
      await expect.poll(selectedInUrl).toBe(hook.id);
      await trigger.getByRole('button', { name: 'Listen for a test event' }).click();
      const timer = trigger.getByRole('timer');
      await timer.waitFor();
      while ((await timer.count()) > 0) {
        await fetch(`${base}/webhooks/flows/${flowId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'ada lovelace' }),
        });
        await sleep(700);
      }
      await trigger.getByText('Test succeeded.').waitFor();
      await guide().getByText('2 of 5 done').waitFor();
      expect((await items()).slice(0, 2)).toEqual(['Done: Choose a trigger', 'Done: Test the trigger']);
      // The panel took the keyboard's focus, and scrolled to it: the shot is of the page's top.
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: join(SCREENSHOTS, 'guide-1280.png') });

      // On a phone: the guide fits without scrolling sideways.
      if (dialect === 'sqlite') {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.getByRole('button', { name: 'Close the step panel' }).click();
        await guide().scrollIntoViewIfNeeded();
        expect(await noSideScroll()).toBe(true);
        await guide().screenshot({ path: join(SCREENSHOTS, 'guide-390.png') });
        await page.setViewportSize({ width: 1280, height: 900 });
      }

      // 3. The action: the datastore sets a value.
      await guide().getByRole('button', { name: 'Choose an action' }).click();
      await expect.poll(selectedInUrl).toBe(action.id);
      const set = panel(action.id);
      await pickApp(set, 'Datastore');
      await set.getByLabel('Action event').selectOption({ label: 'Set value' });
      await guide().getByText('3 of 5 done').waitFor();
      await set.getByLabel(/^Key/).fill('greeted');
      await set.getByLabel(/^Value/).fill(`{{step.${hook.id}.body.name}}`);
      await set.getByRole('button', { name: 'Save', exact: true }).click();
      await set.getByRole('button', { name: 'Saved' }).waitFor();

      // 4. Its test runs with the trigger's event.
      await guide().getByRole('button', { name: 'Test the action' }).click();
      await expect.poll(selectedInUrl).toBe(action.id);
      await set.getByRole('button', { name: 'Test step' }).click();
      await set.getByText('Test succeeded.').waitFor();
      await guide().getByText('4 of 5 done').waitFor();
      expect(await items()).toEqual([
        'Done: Choose a trigger',
        'Done: Test the trigger',
        'Done: Add an action',
        'Done: Test the action',
        'Not done: Publish',
      ]);

      // 5. The guide's last button puts the keyboard on Publish; published, the guide is gone.
      await guide().getByRole('button', { name: 'Go to Publish' }).click();
      await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Publish');
      await page.keyboard.press('Enter');
      await page.locator('.toasts').getByText('Flow published.').waitFor();
      await guide().waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('button', { name: 'Unpublish' }).waitFor();
      expect(await guide().count()).toBe(0);
    }, 180_000);

    it('stays hidden once hidden, after a reload too', async () => {
      const flow = await api('POST', '/flows');
      await page.goto(`${base}/flows/${flow.id}`);
      await guide().getByText('0 of 5 done').waitFor();
      await guide().getByRole('button', { name: 'Hide guide' }).click();
      await guide().waitFor({ state: 'detached' });
      // Its button gone, the keyboard's focus goes on to the canvas.
      await expect
        .poll(() => page.evaluate<boolean>("document.activeElement?.closest('.canvas-node') != null"))
        .toBe(true);
      expect(await page.evaluate<string | null>("localStorage.getItem('conveyor.firstFlowGuide.hidden')")).toBe('true');
      await page.reload();
      await page.locator('.canvas-node').first().waitFor();
      expect(await guide().count()).toBe(0);
    }, 60_000);
  });
});
