import { describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { describeAppContract } from './app-contract.js';

for (const app of builtInApps) describeAppContract(app);

describe('the built-in apps', () => {
  it('have unique keys', () => {
    const keys = builtInApps.map((a) => a.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keep the keys and arguments of API.md §11', () => {
    const steps = (appKey: string) => {
      const app = builtInApps.find((a) => a.key === appKey);
      return Object.fromEntries(
        [...(app?.manifest.triggers ?? []), ...(app?.manifest.actions ?? [])].map((s) => [
          s.key,
          s.arguments.map((a) => a.key),
        ]),
      );
    };
    expect(steps('postgresql')).toMatchObject({
      SQLQuery: expect.arrayContaining(['queryStatement', 'params']),
      insert: expect.arrayContaining(['table', 'values']),
      update: expect.any(Array),
      delete: expect.any(Array),
    });
    expect(steps('smtp')).toMatchObject({
      sendEmail: expect.arrayContaining([
        'fromName',
        'fromEmail',
        'replyTo',
        'to',
        'cc',
        'bcc',
        'subject',
        'body',
        'html',
      ]),
    });
    expect(steps('github')).toMatchObject({ createIssue: expect.arrayContaining(['repo', 'title', 'body']) });
    expect(steps('filter')).toEqual({ continueIfMatches: ['or'] });
    expect(steps('formatter')).toEqual({
      text: ['transform', 'input'],
      numbers: ['transform'],
      'date-time': ['transform'],
    });
    expect(steps('code')).toEqual({ runJavascript: ['inputs', 'codeSnippet'] });
    expect(steps('rss')).toEqual({ newItemsInFeed: ['feedUrl'] });
    expect(steps('rabbitmq')).toEqual({
      newMessage: ['queue', 'prefetch'],
      publishMessage: ['exchange', 'routingKey', 'message', 'headers', 'persistent', 'messageId'],
    });
    expect(steps('http-request')).toEqual({ customRequest: ['method', 'url', 'headers', 'data'] });
    expect(steps('webhook')).toEqual({
      catchRawWebhook: ['workSynchronously'],
      respondWith: ['statusCode', 'headers', 'body'],
    });
    // Automatisch's forms app, key for key.
    expect(steps('forms')).toEqual({
      newFormSubmission: ['formId', 'workSynchronously', 'asyncRedirectUrl'],
      respondWith: ['statusCode', 'headers', 'body'],
    });
    expect(steps('scheduler')).toMatchObject({
      everyNMinutes: expect.arrayContaining(['interval']),
      everyHour: expect.arrayContaining(['triggersOnWeekend']),
      everyDay: expect.arrayContaining(['hour', 'triggersOnWeekend']),
      everyWeek: expect.arrayContaining(['weekday', 'hour']),
      everyMonth: expect.arrayContaining(['day', 'hour']),
      cron: expect.arrayContaining(['expression', 'timezone']),
    });
    expect(steps('delay')).toEqual({ delayFor: ['delayForUnit', 'delayForValue'], delayUntil: ['delayUntil'] });
    expect(steps('datastore')).toEqual({ getValue: ['key'], setValue: ['key', 'value'] });
    expect(steps('branches')).toEqual({ execute: ['mode'], executeBranch: [] });
    expect(steps('loop')).toEqual({ loopOverItems: ['items', 'maxItems'] });
    expect(steps('flows')).toEqual({
      calledByFlow: [],
      executionFailed: ['flowIds'],
      callFlow: ['flowId', 'input', 'waitForResult'],
      returnResult: ['result'],
      stopExecution: ['status', 'message'],
    });
    expect(steps('wait')).toEqual({
      waitForWebhook: ['timeoutMinutes'],
      waitForApproval: ['message', 'recipients', 'timeoutMinutes'],
      waitForForm: ['formId', 'message', 'recipients', 'timeoutMinutes'],
    });
  });

  it("evaluates paths, branches and loops in the engine: their actions' run says so instead of running", async () => {
    for (const app of builtInApps.filter((a) => a.key === 'branches' || a.key === 'loop')) {
      for (const action of app.actions) {
        await expect(action.run({} as never), `${app.key}.${action.key}`).rejects.toThrow(/evaluated by the engine/);
      }
    }
  });

  it('are what the catalog lists, by name', async () => {
    const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
    try {
      const names = catalog.list().map((a) => a.name);
      expect(names).toEqual(builtInApps.map((a) => a.manifest.name).sort((a, b) => a.localeCompare(b)));
      expect(names).toEqual(expect.arrayContaining(['GitHub', 'HTTP Request', 'PostgreSQL', 'Webhook']));
    } finally {
      await catalog.close();
    }
  });
});
