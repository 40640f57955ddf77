import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, sendWebhook } from '../support/engine-flows.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * Issue 25's runs pages in Chromium, on both databases: the executions list (duration, trigger
 * data, auto-refresh, search in the runs' data, version filter), re-running a run from a step,
 * and a flow's datastore (list, search, delete).
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the runs pages suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The runs pages suite is SKIPPED. ***\n\n`);
}

const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
const isFinished = (e: { status: string }) => e.status === 'success' || e.status === 'failure';

describe.skipIf('missing' in browserAvailable)('the runs pages in Chromium', () => {
  let assets: string;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assets = mkdtempSync(join(tmpdir(), 'conveyor-runs-console-'));
    await buildConsole(assets);
  }, 180_000);
  afterAll(() => rmSync(assets, { recursive: true, force: true }));

  describe.each(DIALECTS)('(%s)', (dialect) => {
    const cleanups: Array<() => Promise<unknown> | unknown> = [];
    let instance: TestInstance;
    let token: string;
    let base: string;
    let browser: Browser;
    let page: Page;

    const api = async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await instance.request(method, path, { token, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body?.data;
    };
    const rows = () => page.locator('table.table tbody tr');
    const shot = async (name: string, width: number) => {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SCREENSHOTS, `runs-${name}-${width}.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    };

    beforeAll(async () => {
      instance = await startTestInstance(dialect, { WEB_CONSOLE_DIR: assets });
      cleanups.push(() => instance.close());
      token = await installAndSignIn(instance);
      const served = await listen(instance);
      cleanups.push(() => served.close());
      base = served.url;
      const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
      browser = await launchChromium(launchPath);
      cleanups.push(() => browser.close());
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      page.setDefaultTimeout(15_000);
      page.on('dialog', (dialog) => dialog.accept());
      await page.goto(`${base}/login`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Flows' }).waitFor();
    }, 120_000);

    afterAll(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('lists runs with their duration and trigger data, follows new ones, searches their data and filters by version; re-runs one from a step; browses the datastore', async () => {
      // A webhook whose name is upper-cased and stored under the key it brings.
      const { flowId, stepIds, call } = await buildFlow(
        instance,
        token,
        { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
        [
          ([trigger]) => ({
            appKey: 'formatter',
            key: 'text',
            parameters: { transform: 'uppercase', input: ref(trigger as string, 'body.name') },
          }),
          ([trigger, upper]) => ({
            appKey: 'datastore',
            key: 'setValue',
            parameters: { key: ref(trigger as string, 'body.key'), value: ref(upper as string, 'output') },
          }),
        ],
      );
      await call('PATCH', `/flows/${flowId}/status`, { active: true });
      const runs = async (count: number): Promise<any[]> =>
        eventually(
          async () => (await api('GET', `/executions?flowId=${flowId}&perPage=50`)) as any[],
          (list) => list.length === count && list.every(isFinished),
          10_000,
        );
      await sendWebhook(instance, flowId, { name: 'ada', key: 'customer/ada' });
      await sendWebhook(instance, flowId, { name: 'grace', key: 'customer/grace' });
      await runs(2);
      // Version 2 lower-cases; one run on it.
      await call('PATCH', `/steps/${stepIds[1]}`, {
        parameters: { transform: 'lowercase', input: ref(stepIds[0] as string, 'body.name') },
      });
      await call('POST', `/flows/${flowId}/versions`, { message: 'lower case' });
      await sendWebhook(instance, flowId, { name: 'Alan', key: 'customer/alan' });
      await runs(3);

      // The list: each run's duration and its trigger's body, shortened, the whole on unfolding.
      await page.goto(`${base}/executions?flowId=${flowId}`);
      await expect.poll(() => rows().count()).toBe(3);
      const durations = await rows().locator('td:nth-child(5)').allTextContents();
      for (const duration of durations) expect(duration).toMatch(/^\d+(\.\d)? (ms|s)$/);
      // Each run's trigger record is asked for on its own, after the list: all three, once they are in.
      await expect.poll(() => rows().locator('.trigger-preview summary').count(), { timeout: 15_000 }).toBe(3);
      const previews = await rows().locator('.trigger-preview summary').allTextContents();
      // Postgres keeps JSON objects' keys in an order of its own: each preview is checked for its parts.
      const names = ['Alan', 'grace', 'ada'];
      expect(previews).toHaveLength(3);
      previews.forEach((preview, at) => {
        expect(preview).toMatch(/^\{.*\}$/);
        expect(preview).toContain(`"name":"${names[at]}"`);
        expect(preview).toContain(`"key":"customer/${names[at]?.toLowerCase()}"`);
      });
      const first = rows().first();
      await first.locator('.trigger-preview summary').click();
      await expect.poll(() => first.locator('.trigger-preview pre').textContent()).toContain('"method": "POST"');
      await page.getByRole('checkbox', { name: 'Auto-refresh' }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'Auto-refresh' }).isChecked()).toBe(true);
      await shot('executions', 1280);
      await shot('executions', 390);

      // Auto-refresh brings a new run in, without a reload, keeping the search typed meanwhile.
      await page.getByLabel('Search in data').fill('grace');
      await expect.poll(() => rows().count()).toBe(1);
      await sendWebhook(instance, flowId, { name: 'Grace Hopper', key: 'customer/hopper' });
      await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(2);
      expect(await page.getByLabel('Search in data').inputValue()).toBe('grace');
      await page.getByLabel('Search in data').fill('nobody-has-this');
      await page.getByText('No executions here yet').waitFor();
      await page.getByLabel('Search in data').fill('');
      await expect.poll(() => rows().count()).toBe(4);

      // The version filter: only the runs of version 2 (Alan and Grace Hopper).
      await page.getByLabel('Version').fill('2');
      await expect.poll(() => rows().locator('.tag', { hasText: /^v/ }).allTextContents()).toEqual(['v2', 'v2']);
      await page.getByLabel('Version').fill('1');
      await expect.poll(() => rows().locator('.tag', { hasText: /^v/ }).allTextContents()).toEqual(['v1', 'v1']);

      // Pausing auto-refresh: a new run does not appear until Refresh.
      await page.getByRole('checkbox', { name: 'Auto-refresh' }).uncheck();
      await page.getByLabel('Version').fill('');
      await expect.poll(() => rows().count()).toBe(4);
      await sendWebhook(instance, flowId, { name: 'edsger', key: 'customer/edsger' });
      await runs(5);
      await page.waitForTimeout(6000);
      expect(await rows().count()).toBe(4);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => rows().count()).toBe(5);

      // Re-run Ada's run from its datastore step: the upper-casing is carried over, not run again.
      const all = await runs(5);
      const ada = all[all.length - 1]; // the oldest
      const original = await api('GET', `/executions/${ada.id}`);
      expect(original.steps[0].dataOut.body.name).toBe('ada');
      await page.goto(`${base}/executions/${ada.id}`);
      const stored = page.locator('article.step-card').nth(2);
      expect(
        await page.locator('article.step-card').first().getByRole('button', { name: 'Re-run from this step' }).count(),
      ).toBe(0);
      await stored.getByRole('button', { name: 'Re-run from this step' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/executions/') && !url.pathname.endsWith(ada.id));
      const rerunId = new URL(page.url()).pathname.split('/').pop() as string;
      await page.locator('.page-header .badge-success').waitFor();
      const rerun = await api('GET', `/executions/${rerunId}`);
      expect(rerun).toMatchObject({ retryOf: ada.id, status: 'success', flowVersion: { number: 1 } });
      expect(rerun.steps.map((s: any) => s.stepId)).toEqual(stepIds);
      // The formatter's record is the original's (same time): it did not run again; the datastore step did.
      expect(rerun.steps[1]).toMatchObject({ createdAt: original.steps[1].createdAt, dataOut: { output: 'ADA' } });
      expect(rerun.steps[2].createdAt).toBeGreaterThan(original.steps[2].createdAt);
      await page.getByRole('link', { name: 'the earlier execution' }).waitFor();

      // The datastore, from the flow editor's header.
      await page.goto(`${base}/flows/${flowId}`);
      await page.getByRole('link', { name: 'Datastore', exact: true }).click();
      await page.getByRole('heading', { name: /^Datastore of / }).waitFor();
      await expect.poll(() => rows().count()).toBe(5);
      expect(await rows().locator('.datastore-key').allTextContents()).toEqual([
        'customer/ada',
        'customer/alan',
        'customer/edsger',
        'customer/grace',
        'customer/hopper',
      ]);
      const adaRow = rows().first();
      expect(await adaRow.locator('.datastore-value summary').textContent()).toBe('"ADA"');
      await adaRow.locator('.datastore-value summary').click();
      await expect.poll(() => adaRow.locator('pre.json').textContent()).toBe('"ADA"');
      await page.getByLabel('Search keys and values').fill('GRACE');
      await expect.poll(() => rows().count()).toBe(2);
      expect(await rows().locator('.datastore-key').allTextContents()).toEqual(['customer/grace', 'customer/hopper']);
      await page.getByLabel('Search keys and values').fill('');
      await expect.poll(() => rows().count()).toBe(5);
      await shot('datastore', 1280);
      await page.getByRole('button', { name: 'Delete customer/ada' }).click();
      await expect.poll(() => rows().count()).toBe(4);
      const left = ((await api('GET', `/flows/${flowId}/datastore`)) as any[]).map((e) => e.key);
      expect(left).toEqual(['customer/alan', 'customer/edsger', 'customer/grace', 'customer/hopper']);
    }, 180_000);
  });
});
