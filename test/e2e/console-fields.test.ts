import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import { buildConsole, launchChromium } from '../support/console-browser.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * The step form's editors in Chromium: variables shown as chips (label, sample on hover and at the
 * cursor, Backspace, `{{`), a JSON body in the multi-line editor with its syntax error, and the
 * stored parameters, which stay the template strings the engine reads.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the step form fields suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The step form fields suite is SKIPPED. ***\n\n`);
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let assets: string;

beforeAll(async () => {
  if ('missing' in browserAvailable) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  assets = mkdtempSync(join(tmpdir(), 'conveyor-fields-console-'));
  cleanups.push(() => rmSync(assets, { recursive: true, force: true }));
  await buildConsole(assets);
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What a field holds: the template the editor keeps on its editable element (`data-value`). */
const fieldValue = (field: Locator) => field.getAttribute('data-value');

describe.skipIf('missing' in browserAvailable).each(DIALECTS)('the step form fields in Chromium on %s', (dialect) => {
  const mine: Array<() => Promise<unknown> | unknown> = [];
  let instance: TestInstance;
  let token: string;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    instance = await startTestInstance(dialect, { WEB_CONSOLE_DIR: assets });
    mine.push(() => instance.close());
    token = await installAndSignIn(instance);
    const served = await listen(instance);
    mine.push(() => served.close());
    base = served.url;
    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
    mine.push(() => browser.close());
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of mine.splice(0).reverse()) await cleanup();
  });

  it('shows variables as chips, edits a JSON body, and stores the template strings', async () => {
    // A webhook tested with a sample order, then an HTTP request that sends it on.
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        () => ({
          appKey: 'http-request',
          key: 'customRequest',
          parameters: { method: 'POST', url: 'https://example.com/orders/' },
        }),
      ],
    );
    const [triggerId, actionId] = stepIds as [string, string];
    const sample = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: { id: 42, customer: 'Ada Lovelace' } }),
    });
    expect(sample.status).toBeLessThan(300);
    await call('POST', `/steps/${triggerId}/test`, {});
    const orderId = `{{step.${triggerId}.body.order.id}}`;
    const customer = `{{step.${triggerId}.body.order.customer}}`;

    // The action selected on the canvas (by the address): its editor in the side panel.
    await page.goto(`${base}/flows/${flowId}?step=${actionId}`);
    const action = page.locator(`aside.step-panel [data-step-id="${actionId}"]`);
    const url = action.getByLabel('URL (required)');
    await expect.poll(() => fieldValue(url)).toBe('https://example.com/orders/');
    const sampleLine = action.locator('.chip-sample').first();

    // Inserted from the picker where the cursor is: a chip that names the step and the path.
    await url.focus();
    await page.keyboard.press('Control+End');
    await action.getByRole('button', { name: 'Insert variable into URL' }).click();
    await action.getByRole('button', { name: /body\.order\.id/ }).click();
    expect(await fieldValue(url)).toBe(`https://example.com/orders/${orderId}`);
    const chip = url.locator('.cm-chip');
    expect(await chip.textContent()).toContain('1. Catch raw webhook › body › order › id');
    expect(await chip.getAttribute('title')).toContain('Sample: 42');
    // The cursor stands after it: its sample shows under the field (and is announced).
    await expect.poll(() => sampleLine.textContent()).toBe('1. Catch raw webhook › body › order › id: 42');
    expect(await sampleLine.getAttribute('aria-live')).toBe('polite');
    // Hovered, the same (the pointer first away from wherever the picker left it).
    await page.mouse.move(0, 0);
    // The field's start (Home alone goes to the start of the visual line, and the panel may wrap it).
    await page.keyboard.press('Control+Home');
    await expect.poll(() => sampleLine.textContent()).toBe('');
    await chip.hover();
    await expect.poll(() => sampleLine.textContent()).toBe('1. Catch raw webhook › body › order › id: 42');
    await page.mouse.move(0, 0);

    // Backspace after it removes the whole chip, not a brace of it.
    await url.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Backspace');
    expect(await fieldValue(url)).toBe('https://example.com/orders/');
    expect(await chip.count()).toBe(0);

    // `{{` offers the variables by their labels; the one chosen is a chip again.
    await page.keyboard.type('{{order id');
    await page.getByRole('option', { name: /body › order › id/ }).click();
    expect(await fieldValue(url)).toBe(`https://example.com/orders/${orderId}`);
    await chip.waitFor();

    // The × removes it too; undo brings it back.
    await chip.getByRole('button', { name: 'Remove 1. Catch raw webhook › body › order › id' }).click();
    expect(await fieldValue(url)).toBe('https://example.com/orders/');
    await page.keyboard.press('Control+z');
    expect(await fieldValue(url)).toBe(`https://example.com/orders/${orderId}`);

    // The body is a multi-line editor: JSON is highlighted and checked as it is typed.
    const body = action.getByLabel('Body', { exact: true });
    expect(await body.getAttribute('aria-multiline')).toBe('true');
    await body.fill(`{\n  "customer": "${customer}",\n  "id": \n}`);
    const problem = action.locator('.json-problem');
    await expect.poll(() => problem.textContent()).toMatch(/^JSON syntax error at line 4, column 1: /);
    await expect.poll(() => body.getAttribute('aria-invalid')).toBe('true');
    expect((await body.getAttribute('aria-describedby'))?.split(' ')).toContain(await problem.getAttribute('id'));
    expect(await action.locator('.template-editor-body .cm-lineNumbers').count()).toBe(1);
    // A variable stands for a value; with it the JSON is whole.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await action.getByRole('button', { name: 'Insert variable into Body' }).click();
    await action.getByRole('button', { name: /body\.order\.id/ }).click();
    const bodyText = `{\n  "customer": "${customer}",\n  "id": ${orderId}\n}`;
    expect(await fieldValue(body)).toBe(bodyText);
    await problem.waitFor({ state: 'detached' });
    await expect.poll(() => body.getAttribute('aria-invalid')).toBe(null);
    expect(await body.locator('.cm-chip').allTextContents()).toEqual([
      '1. Catch raw webhook › body › order › customer×',
      '1. Catch raw webhook › body › order › id×',
    ]);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await action.scrollIntoViewIfNeeded();
      await body.locator('.cm-chip').first().hover();
      await page.screenshot({ path: join(SCREENSHOTS, `fields-step-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Saved, the step's parameters are the template strings, exactly as before chips.
    await action.getByRole('button', { name: 'Save', exact: true }).click();
    await action.getByRole('button', { name: 'Saved' }).waitFor();
    const stored = (await call('GET', `/flows/${flowId}`)).steps.find((s: { id: string }) => s.id === actionId);
    expect(stored.parameters).toMatchObject({
      method: 'POST',
      url: `https://example.com/orders/${orderId}`,
      data: bodyText,
    });

    // Reloaded, the same chips from the same strings.
    await page.reload();
    await expect.poll(() => fieldValue(action.getByLabel('Body', { exact: true }))).toBe(bodyText);
    expect(await action.getByLabel('URL (required)').locator('.cm-chip').count()).toBe(1);
  }, 90_000);
});
