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
 * The flow editor's canvas in Chromium, on each database: a flow built on the graph (a "+" on an
 * edge, a node selected and edited in the side panel, a step dragged within its branch), zoom and
 * fit, the selection kept in the address, the keyboard, the narrow screen; then read back from the API.
 */
const SCREENSHOTS = resolve('test-results/screenshots');
const browserAvailable = ensureChromium();
if ('missing' in browserAvailable) {
  if (process.env.CI) throw new Error(`CI: the canvas suite needs Chromium: ${browserAvailable.missing}`);
  process.stderr.write(`\n*** ${browserAvailable.missing} The canvas suite is SKIPPED. ***\n\n`);
}

interface ApiStep {
  id: string;
  type: string;
  appKey: string | null;
  key: string | null;
  name: string | null;
  position: number;
  parentStepId: string | null;
  structuralType: string;
  parameters: Record<string, unknown>;
}

describe.skipIf('missing' in browserAvailable)('the flow canvas in Chromium', () => {
  let assets: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    assets = mkdtempSync(join(tmpdir(), 'conveyor-canvas-console-'));
    await buildConsole(assets);
    const launchPath = 'path' in browserAvailable ? browserAvailable.path : '';
    browser = await launchChromium(launchPath);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(assets, { recursive: true, force: true });
  });

  describe.each(DIALECTS)('on %s', (dialect) => {
    const cleanups: Array<() => Promise<unknown> | unknown> = [];
    let instance: TestInstance;
    let token: string;
    let base: string;
    let page: Page;

    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await instance.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.body.data as T;
    };
    const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    const node = (id: string) => page.locator(`.canvas-node[data-step-id="${id}"]`);
    const nodeButton = (id: string) => node(id).locator('button.node-button');
    const panel = () => page.locator('aside.step-panel');
    /** Selects a step on the canvas; its editor in the side panel. */
    const open = async (id: string): Promise<Locator> => {
      await nodeButton(id).click();
      const editor = panel().locator(`[data-step-id="${id}"]`);
      await editor.waitFor();
      return editor;
    };
    const pickApp = async (editor: Locator, name: string) => {
      await editor.getByRole('searchbox', { name: 'Search apps' }).fill(name);
      await editor.getByRole('button', { name, exact: true }).click();
    };
    const selectedInUrl = () => new URL(page.url()).searchParams.get('step');
    const stepsOf = async (flowId: string) => (await api<{ steps: ApiStep[] }>('GET', `/flows/${flowId}`)).steps;
    const childrenOf = (steps: ApiStep[], parent: string | null) =>
      steps.filter((s) => s.parentStepId === parent).sort((a, b) => a.position - b.position);
    /** The step whose node has the keyboard's focus. */
    const focusedNode = () =>
      page.evaluate<string | null>(
        "document.activeElement?.closest('.canvas-node')?.getAttribute('data-step-id') ?? null",
      );
    const zoomLevel = () => page.getByLabel('Zoom level').textContent();

    beforeAll(async () => {
      instance = await startTestInstance(dialect, { WEB_CONSOLE_DIR: assets });
      cleanups.push(() => instance.close());
      token = await installAndSignIn(instance);
      const served = await listen(instance);
      cleanups.push(() => served.close());
      base = served.url;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      cleanups.push(() => context.close());
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto(`${base}/login`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Flows' }).waitFor();
    }, 120_000);

    afterAll(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('builds webhook → paths → an HTTP request in one branch, the datastore in the other, on the canvas', async () => {
      const flow = await api<{ id: string; steps: ApiStep[] }>('POST', '/flows');
      await api('PATCH', `/flows/${flow.id}`, { name: 'Drawn on the canvas' });
      const [triggerId, firstActionId] = flow.steps.map((s) => s.id) as [string, string];
      await page.goto(`${base}/flows/${flow.id}`);
      await page.getByRole('heading', { name: 'Drawn on the canvas' }).waitFor();
      const canvas = page.getByRole('region', { name: 'Flow canvas' });
      await expect.poll(() => canvas.locator('.canvas-node').count()).toBe(2);
      expect(await panel().count()).toBe(0);

      // The trigger: selected, it opens in the side panel and in the address; the webhook app has one
      // trigger, which comes with it.
      const trigger = await open(triggerId);
      expect(selectedInUrl()).toBe(triggerId);
      await pickApp(trigger, 'Webhook');
      await trigger.getByTestId('webhook-url').waitFor();
      expect(await trigger.getByLabel('Trigger event').locator('option:checked').textContent()).toBe(
        'Catch raw webhook',
      );
      await node(triggerId).getByText('Catch raw webhook').waitFor();

      // Paths on the edge below the trigger: its two branches side by side, and it is selected.
      await canvas.getByRole('button', { name: /^\+ Add after 1\. / }).click();
      await canvas
        .getByRole('group', { name: /^Add after 1\. / })
        .getByRole('button', { name: 'Paths' })
        .click();
      const branchOne = canvas.getByRole('region', { name: 'Branch: Branch 1' });
      const otherwise = canvas.getByRole('region', { name: 'Branch: Otherwise' });
      await otherwise.waitFor();
      const [left, right] = [await branchOne.boundingBox(), await otherwise.boundingBox()];
      expect(left && right && right.x >= left.x + left.width - 1).toBe(true);
      await panel().getByLabel('Branches to take').waitFor();
      let steps = await stepsOf(flow.id);
      const paths = steps.find((s) => s.structuralType === 'paths');
      expect(selectedInUrl()).toBe(paths?.id);
      const [one, fallback] = childrenOf(steps, paths?.id ?? '');
      if (!one || !fallback) throw new Error('the paths step has no branches');

      // A branch selected opens its editor: its conditions.
      const branchEditor = await open(one.id);
      await branchEditor.getByRole('button', { name: 'Edit conditions of Branch 1' }).click();
      const conditions = branchEditor.getByRole('form', { name: 'Conditions of Branch 1' });
      await conditions.getByLabel('Group 1, condition 1: value to test').fill(`{{step.${triggerId}.body.kind}}`);
      await conditions.getByLabel('Group 1, condition 1: operator').selectOption({ label: 'is not empty' });
      await conditions.getByRole('button', { name: 'Save conditions' }).click();
      await branchOne.getByText('When 1. Catch raw webhook › body › kind is not empty.').waitFor();

      // Branch 1's step: the HTTP request app has one action, which comes with it.
      const [httpStepId] = childrenOf(steps, one.id).map((s) => s.id);
      const http = await open(httpStepId ?? '');
      await pickApp(http, 'HTTP Request');
      await http.getByLabel(/^URL/).fill('https://example.com/hook');
      await http.getByRole('button', { name: 'Save', exact: true }).click();
      await http.getByRole('button', { name: 'Saved' }).waitFor();

      // The other branch: the datastore sets a value, and a step added after it reads one.
      const [setId] = childrenOf(steps, fallback.id).map((s) => s.id) as [string];
      const set = await open(setId);
      await pickApp(set, 'Datastore');
      await set.getByLabel('Action event').selectOption({ label: 'Set value' });
      await set.getByLabel(/^Key/).fill('last');
      await set.getByLabel(/^Value/).fill('seen');
      await set.getByRole('button', { name: 'Save', exact: true }).click();
      await set.getByRole('button', { name: 'Saved' }).waitFor();
      await otherwise.getByRole('button', { name: /^\+ Add after \d+\. Set value$/ }).click();
      await otherwise.getByRole('button', { name: 'A step', exact: true }).click();
      await expect.poll(async () => childrenOf(await stepsOf(flow.id), fallback.id).length).toBe(2);
      const getId = childrenOf(await stepsOf(flow.id), fallback.id)[1]?.id ?? '';
      await expect.poll(selectedInUrl).toBe(getId);
      const get = panel().locator(`[data-step-id="${getId}"]`);
      // The picker puts the apps used lately first, the latest on top.
      const recent = get.locator('.app-entry-name');
      await expect.poll(() => recent.nth(0).textContent()).toBe('Datastore');
      expect(await recent.nth(1).textContent()).toBe('HTTP Request');
      expect(await get.locator('.app-entry-recent').count()).toBe(2);
      await pickApp(get, 'Datastore');
      await get.getByLabel('Action event').selectOption({ label: 'Get value' });
      await get.getByLabel(/^Key/).fill('last');
      await get.getByRole('button', { name: 'Save', exact: true }).click();
      await get.getByRole('button', { name: 'Saved' }).waitFor();

      // Dragged onto the step above it, the reading step goes first in its branch.
      await nodeButton(getId).dragTo(nodeButton(setId));
      await expect
        .poll(async () => childrenOf(await stepsOf(flow.id), fallback.id).map((s) => s.id))
        .toEqual([getId, setId]);
      await expect
        .poll(() =>
          otherwise.locator('.canvas-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-step-id'))),
        )
        .toEqual([fallback.id, getId, setId]);

      // The empty action left at the end goes, once confirmed.
      const leftover = await open(firstActionId);
      await leftover.getByRole('button', { name: 'Delete step' }).click();
      await node(firstActionId).waitFor({ state: 'detached' });
      expect(await panel().count()).toBe(0);

      // Zoom: the buttons, ctrl with the wheel, and Fit, which brings every node into view.
      expect(await zoomLevel()).toBe('100%');
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(zoomLevel).toBe('120%');
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await expect.poll(zoomLevel).toBe('80%');
      const viewport = canvas.locator('.canvas-viewport');
      const box = await viewport.boundingBox();
      if (!box) throw new Error('no canvas');
      await page.mouse.move(box.x + 40, box.y + 40);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -300);
      await page.keyboard.up('Control');
      await expect.poll(zoomLevel).not.toBe('80%');
      // Dragging the background pans the graph.
      const before = await nodeButton(triggerId).boundingBox();
      await page.mouse.move(box.x + 20, box.y + box.height - 20);
      await page.mouse.down();
      await page.mouse.move(box.x + 140, box.y + box.height - 60, { steps: 5 });
      await page.mouse.up();
      await expect
        .poll(async () => (await nodeButton(triggerId).boundingBox())?.x)
        .toBeCloseTo((before?.x ?? 0) + 120, -1);
      await page.getByRole('button', { name: 'Fit the flow in view' }).click();
      await expect
        .poll(async () => {
          const boxes = await canvas
            .locator('.canvas-node')
            .evaluateAll((els) =>
              els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.top, r.right, r.bottom]),
            );
          return boxes.every(
            ([l = 0, t = 0, r = 0, b = 0]) =>
              l >= box.x - 1 && t >= box.y - 1 && r <= box.x + box.width + 1 && b <= box.y + box.height + 1,
          );
        })
        .toBe(true);

      // The keyboard: Tab reaches the nodes in order, Enter opens the panel, Escape closes it.
      await nodeButton(triggerId).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focusedNode()).toBe(paths?.id);
      await page.keyboard.press('Enter');
      await panel().getByLabel('Branches to take').waitFor();
      await page.keyboard.press('Escape');
      await panel().waitFor({ state: 'detached' });
      expect(await focusedNode()).toBe(paths?.id);

      // The selection is in the address: a reload opens the same step.
      await open(httpStepId ?? '');
      await page.reload();
      await panel().locator(`[data-step-id="${httpStepId}"]`).getByLabel(/^URL/).waitFor();
      await expect
        .poll(() => panel().locator(`[data-step-id="${httpStepId}"]`).getByLabel(/^URL/).getAttribute('data-value'))
        .toBe('https://example.com/hook');
      await page.getByRole('button', { name: 'Fit the flow in view' }).click();
      if (dialect === 'sqlite') await shot('canvas-editor-1280');

      // What the API holds: webhook → paths { Branch 1: HTTP request; Otherwise: get value, set value }.
      steps = await stepsOf(flow.id);
      const top = childrenOf(steps, null);
      expect(top.map((s) => [s.appKey, s.key, s.structuralType])).toEqual([
        ['webhook', 'catchRawWebhook', 'single'],
        ['branches', expect.any(String), 'paths'],
      ]);
      const lanes = childrenOf(steps, top[1]?.id ?? '');
      expect(lanes.map((b) => b.name)).toEqual(['Branch 1', 'Otherwise']);
      expect(childrenOf(steps, lanes[0]?.id ?? '').map((s) => [s.appKey, s.key, s.parameters.url])).toEqual([
        ['http-request', 'customRequest', 'https://example.com/hook'],
      ]);
      expect(childrenOf(steps, lanes[1]?.id ?? '').map((s) => [s.appKey, s.key, s.parameters.key])).toEqual([
        ['datastore', 'getValue', 'last'],
        ['datastore', 'setValue', 'last'],
      ]);

      // A narrow screen: the panel covers the canvas, full width, and closes with its button.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      const narrow = panel();
      await narrow.locator(`[data-step-id="${httpStepId}"]`).waitFor();
      const covered = await narrow.boundingBox();
      expect(covered?.width).toBeGreaterThanOrEqual(389);
      expect(covered?.x).toBe(0);
      if (dialect === 'sqlite') await shot('canvas-editor-390');
      await narrow.getByRole('button', { name: 'Close the step panel' }).click();
      await narrow.waitFor({ state: 'detached' });
      expect(selectedInUrl()).toBeNull();
      await nodeButton(triggerId).waitFor();
      await page.setViewportSize({ width: 1280, height: 900 });
    }, 120_000);
  });
});
