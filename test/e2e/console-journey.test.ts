import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Dialog, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { DIALECTS } from '../support/databases.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * Issue 25's journey, as a new user makes it in Chromium, on each database, with no API call of
 * its own: from an empty flows page, "webhook → paths (two branches) → HTTP request / datastore"
 * on the canvas with variable chips and a live test event; published; a draft edited while the
 * flow runs the published version; each run's path through the branches on its execution page.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
/** Runs and renders that a loaded machine may take seconds over. */
const POLL = { timeout: 15_000 };
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the journey suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The journey suite is SKIPPED. ***\n\n`);
}

/** The outside service the HTTP request step calls: it keeps each request's address and body. */
const startSink = async () => {
  const received: Array<{ url: string; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
};

describe.skipIf('missing' in browserAvailable)('a first flow, built in the console as a new user would', () => {
  let assets: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assets = mkdtempSync(join(tmpdir(), 'conveyor-journey-console-'));
    await buildConsole(assets);
    browser = await launchChromium('path' in browserAvailable ? browserAvailable.path : '');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(assets, { recursive: true, force: true });
  });

  describe.each(DIALECTS)('on %s', (dialect) => {
    const cleanups: Array<() => Promise<unknown> | unknown> = [];
    let instance: TestInstance;
    let base: string;
    let sink: Awaited<ReturnType<typeof startSink>>;
    let page: Page;
    /** What each dialog asked, and whether the next one is accepted. */
    const dialogs: string[] = [];
    let acceptDialogs = true;

    beforeAll(async () => {
      sink = await startSink();
      cleanups.push(() => sink.close());
      instance = await startTestInstance(dialect, { WEB_CONSOLE_DIR: assets, ALLOW_PRIVATE_NETWORKS: 'true' });
      cleanups.push(() => instance.close());
      await installAndSignIn(instance);
      const served = await listen(instance);
      cleanups.push(() => served.close());
      base = served.url;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      cleanups.push(() => context.close());
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('dialog', (dialog: Dialog) => {
        dialogs.push(dialog.message());
        void (acceptDialogs ? dialog.accept() : dialog.dismiss());
      });
    }, 120_000);

    afterAll(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    const shot = async (name: string) => {
      if (dialect !== 'sqlite') return;
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: join(SCREENSHOTS, `journey-${name}-${width}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    };
    const canvas = () => page.getByRole('region', { name: 'Flow canvas' });
    const nodes = () => canvas().locator('.canvas-node');
    const panelEditor = () => page.locator('aside.step-panel [data-step-id]').first();
    const pickApp = async (editor: Locator, name: string) => {
      await editor.getByRole('searchbox', { name: 'Search apps' }).fill(name);
      await editor.getByRole('button', { name, exact: true }).click();
    };
    const fieldValue = (field: Locator) => field.getAttribute('data-value');
    /** Puts the variable whose path matches at the end of a chip field, from its picker. */
    const insertVariable = async (editor: Locator, field: string, path: RegExp) => {
      await editor.getByLabel(field, { exact: true }).focus();
      await page.keyboard.press('Control+End');
      await editor.getByRole('button', { name: `Insert variable into ${field.replace(/ \(required\)$/, '')}` }).click();
      await editor.getByRole('button', { name: path }).click();
    };
    const save = async (editor: Locator) => {
      await editor.getByRole('button', { name: 'Save', exact: true }).click();
      await editor.getByRole('button', { name: 'Saved' }).waitFor();
    };
    const sendWebhook = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('builds webhook → paths → HTTP request / datastore, publishes it, edits a draft while it runs, and follows each run down its branch', async () => {
      // A failure on a loaded machine leaves what the page showed, and what it said went wrong.
      onTestFailed(async () => {
        await page.screenshot({ path: join(SCREENSHOTS, `journey-failure-${dialect}.png`), fullPage: true });
        const said = await page.locator('.alert, .field-error, .toast').allTextContents();
        process.stderr.write(`journey (${dialect}) failed at ${page.url()}; the page said: ${JSON.stringify(said)}\n`);
      });

      // Signed in, with no flow yet: the first-run box starts one from scratch.
      await page.goto(`${base}/login`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('No flows yet.').waitFor();
      await shot('first-run');
      await page.getByRole('button', { name: 'Start from scratch' }).click();
      await page.waitForURL(/\/flows\/[^/?]+$/);
      const flowPath = new URL(page.url()).pathname;
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByLabel('Flow name').fill('Orders');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await expect.poll(() => nodes().count(), POLL).toBe(2);

      // The trigger: the Webhook app (its one trigger comes with it), then a live test event.
      await nodes().first().locator('button.node-button').click();
      const trigger = panelEditor();
      await pickApp(trigger, 'Webhook');
      const hookUrl = (await trigger.getByTestId('webhook-url').textContent()) ?? '';
      const hookPath = new URL(hookUrl).pathname;
      expect(hookPath).toMatch(/^\/webhooks\/flows\//);
      await trigger.getByRole('button', { name: 'Listen for a test event' }).click();
      const timer = trigger.getByRole('timer');
      await timer.waitFor();
      const sample = { kind: 'order', customer: { name: 'Ada Lovelace' }, total: 42 };
      while ((await timer.count()) > 0) {
        await sendWebhook(hookPath, sample);
        await page.waitForTimeout(700);
      }
      await trigger.getByText('Test succeeded.').waitFor();
      await trigger.locator('.json-tree').getByText('"Ada Lovelace"').waitFor();

      // Paths on the edge under the trigger: Branch 1 when the body has a kind, Otherwise.
      await canvas()
        .getByRole('button', { name: /^\+ Add after 1\. / })
        .click();
      await canvas()
        .getByRole('group', { name: /^Add after 1\. / })
        .getByRole('button', { name: 'Paths' })
        .click();
      const branchOne = canvas().getByRole('region', { name: 'Branch: Branch 1' });
      const otherwise = canvas().getByRole('region', { name: 'Branch: Otherwise' });
      await otherwise.waitFor();
      await branchOne.locator('.canvas-node').first().locator('button.node-button').click();
      const branchEditor = panelEditor();
      await branchEditor.getByRole('button', { name: 'Edit conditions of Branch 1' }).click();
      const conditions = branchEditor.getByRole('form', { name: 'Conditions of Branch 1' });
      // The value to test is a variable from the test event, picked and shown as a chip.
      await conditions.getByRole('button', { name: 'Insert variable into Group 1, condition 1 value to test' }).click();
      await conditions.getByRole('button', { name: /body\.kind/ }).click();
      const tested = conditions.getByLabel('Group 1, condition 1: value to test');
      expect(await tested.locator('.cm-chip').textContent()).toContain('1. Catch raw webhook › body › kind');
      await conditions.getByLabel('Group 1, condition 1: operator').selectOption({ label: 'is not empty' });
      await conditions.getByRole('button', { name: 'Save conditions' }).click();
      // The canvas says it in words: the variable by its label, not by the trigger's id.
      await expect
        .poll(() => branchOne.locator('.canvas-node').first().textContent(), POLL)
        .toContain('When 1. Catch raw webhook › body › kind is not empty.');

      // Branch 1: an HTTP request to the outside service, the customer's name in its address as a chip.
      await branchOne.locator('.canvas-node').nth(1).locator('button.node-button').click();
      const http = panelEditor();
      await pickApp(http, 'HTTP Request');
      const url = http.getByLabel('URL (required)');
      await url.fill(`${sink.url}/orders?customer=`);
      await insertVariable(http, 'URL (required)', /body\.customer\.name/);
      expect(await url.locator('.cm-chip').textContent()).toContain('1. Catch raw webhook › body › customer › name');
      expect(await url.locator('.cm-chip').getAttribute('title')).toContain('Ada Lovelace');
      await save(http);
      const httpNode = branchOne.locator('.canvas-node').nth(1);

      // Otherwise: the datastore keeps the last order's total, a chip too.
      await otherwise.locator('.canvas-node').nth(1).locator('button.node-button').click();
      const store = panelEditor();
      await pickApp(store, 'Datastore');
      await store.getByLabel('Action event').selectOption({ label: 'Set value' });
      await store.getByLabel(/^Key/).fill('last-total');
      await insertVariable(store, 'Value', /body\.total/);
      await store.getByRole('button', { name: 'Save', exact: true }).waitFor();

      // Another step chosen with an edit unsaved: the console asks first, and "no" keeps the edit.
      acceptDialogs = false;
      await httpNode.locator('button.node-button').click();
      expect(dialogs.at(-1)).toMatch(/has changes that are not saved/);
      expect(await fieldValue(store.getByLabel(/^Key/))).toBe('last-total');
      acceptDialogs = true;
      await save(store);
      await expect.poll(() => fieldValue(store.getByLabel(/^Value/)), POLL).toContain('.body.total}}');

      // The empty step left after the paths goes.
      const leftover = nodes().last();
      await leftover.locator('button.node-button').click();
      await panelEditor().getByRole('button', { name: 'Delete step' }).click();
      await expect.poll(() => nodes().count(), POLL).toBe(6);
      await page.getByRole('button', { name: 'Fit the flow in view' }).click();
      await shot('canvas');

      // Published: a toast says so.
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.locator('.toasts').getByText('Flow published.').waitFor();
      await page.getByRole('button', { name: 'Unpublish' }).waitFor();

      // Two orders: one goes down Branch 1 (the request), one without a kind goes Otherwise.
      await sendWebhook(hookPath, { kind: 'order', customer: { name: 'Grace Hopper' }, total: 7 });
      await expect.poll(() => sink.received.map((r) => r.url), POLL).toContain('/orders?customer=Grace%20Hopper');
      await sendWebhook(hookPath, { customer: { name: 'Alan Turing' }, total: 99 });

      // A draft edited while version 1 runs: the banner says so, and the live flow is unchanged.
      await httpNode.locator('button.node-button').click();
      const liveHttp = panelEditor();
      await liveHttp.getByLabel('URL (required)').focus();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('&draft=1');
      await save(liveHttp);
      const banner = page.getByRole('region', { name: 'Draft' });
      await banner.getByText('Published version 1 is live. You are editing a draft.').waitFor();
      await shot('draft');
      await sendWebhook(hookPath, { kind: 'order', customer: { name: 'Edsger Dijkstra' }, total: 3 });
      await expect.poll(() => sink.received.map((r) => r.url), POLL).toContain('/orders?customer=Edsger%20Dijkstra');
      expect(sink.received.some((r) => r.url.includes('draft=1'))).toBe(false);
      expect(await fieldValue(liveHttp.getByLabel('URL (required)'))).toMatch(/\.body\.customer\.name}}&draft=1$/);
      await banner.getByRole('button', { name: 'Publish changes' }).click();
      await banner.getByLabel('What changed (optional)').fill('Mark drafts');
      await banner.getByRole('button', { name: 'Publish version 2' }).click();
      await page.locator('.toasts').getByText('Version 2 is live.').waitFor();

      // The executions of this flow, from the editor: the three orders' runs (beside the test event's), each a success.
      await page.getByRole('link', { name: 'Executions' }).first().click();
      const rows = page.locator('table.table tbody tr');
      for (const name of ['Grace Hopper', 'Alan Turing', 'Edsger Dijkstra']) {
        await expect
          .poll(() => rows.filter({ hasText: name }).locator('.badge').allTextContents(), { timeout: 15_000 })
          .toEqual(['success']);
      }
      await shot('executions');

      // Alan's run went Otherwise: the execution page shows which branch ran and which did not.
      const alan = rows.filter({ hasText: 'Alan Turing' });
      await alan.getByRole('link', { name: 'Orders' }).click();
      const ran = (name: string) => page.getByRole('region', { name: `Branch: ${name}` }).locator('.branch-state');
      await expect.poll(() => ran('Otherwise').textContent(), POLL).toBe('Ran');
      expect(await ran('Branch 1').textContent()).toBe('Did not run');
      await page.getByRole('region', { name: 'Branch: Otherwise' }).getByText('Set value').first().waitFor();
      await shot('execution-otherwise');

      // Grace's went down Branch 1, to the request.
      await page.goBack();
      await rows.filter({ hasText: 'Grace Hopper' }).getByRole('link', { name: 'Orders' }).click();
      await expect.poll(() => ran('Branch 1').textContent(), POLL).toBe('Ran');
      expect(await ran('Otherwise').textContent()).toBe('Did not run');
      await shot('execution-branch-1');

      // Back in the editor, the flow is as built, and version 2 runs.
      await page.goto(`${base}${flowPath}`);
      await page.getByText('version 2 live').waitFor();
    }, 180_000);
  });
});
