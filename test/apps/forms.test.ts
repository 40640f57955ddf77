import { afterAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
afterAll(() => catalog.close());

const FORM_ID = '6f1f0000-0000-4000-8000-000000000001';

describe('forms: newFormSubmission', () => {
  const trigger = (body: unknown) =>
    catalog.runTrigger({
      appKey: 'forms',
      key: 'newFormSubmission',
      parameters: { formId: FORM_ID },
      connection: null,
      execution: null,
      webhook: { method: 'POST', headers: {}, query: {}, body },
    });

  it('gives the answers as the item, keyed as they came', async () => {
    expect(await trigger({ name: 'Ada', guests: [{ name: 'Bob' }] })).toEqual([
      { data: { name: 'Ada', guests: [{ name: 'Bob' }] } },
    ]);
  });

  it('gives an empty item for a body that is not an object of answers', async () => {
    expect(await trigger('text')).toEqual([{ data: {} }]);
    expect(await trigger(null)).toEqual([{ data: {} }]);
  });

  it('needs a form, waits by default, and takes only a web address to redirect to', () => {
    const check = (parameters: Record<string, unknown>) =>
      catalog.checkStepParameters('forms', 'trigger', 'newFormSubmission', parameters);
    expect(check({})).toEqual({ formId: ['is required.'] });
    expect(check({ formId: FORM_ID })).toBeNull();
    expect(check({ formId: FORM_ID, asyncRedirectUrl: 'javascript:alert(1)' })).toEqual({
      asyncRedirectUrl: ['must be an http or https URL.'],
    });
  });
});

describe('forms: respondWith', () => {
  const respond = (parameters: Record<string, unknown>) =>
    catalog.runAction({ appKey: 'forms', key: 'respondWith', parameters, connection: null, execution: null });

  it('answers a status, headers and the body as text', async () => {
    expect(
      await respond({
        statusCode: '201',
        headers: [{ key: 'X-Redirect-URL', value: 'https://example.com' }],
        body: '{"a":1}',
      }),
    ).toEqual({ statusCode: 201, headers: { 'X-Redirect-URL': 'https://example.com' }, body: '{"a":1}' });
  });

  it('refuses what a page cannot show: no body, a status without one, a header HTTP cannot carry', () => {
    const check = (parameters: Record<string, unknown>) =>
      catalog.checkStepParameters('forms', 'action', 'respondWith', parameters);
    expect(check({})).toEqual({ body: ['is required.'] });
    expect(check({ statusCode: 204, body: 'x' })).toEqual({ statusCode: [expect.stringMatching(/status 204/)] });
    expect(check({ body: 'x', headers: [{ key: 'Bad Header', value: 'x' }] })).toEqual({
      headers: [expect.stringMatching(/is not a header name/)],
    });
  });
});

describe('forms: listForms', () => {
  it('lists the flow owner’s forms by name', async () => {
    const options = await catalog.dynamicData({
      appKey: 'forms',
      key: 'listForms',
      parameters: {},
      connection: null,
      owner: { flows: async () => [], agents: async () => [], forms: async () => [{ id: FORM_ID, name: 'Contact' }] },
    });
    expect(options).toEqual([{ name: 'Contact', value: FORM_ID }]);
  });

  it('lists nothing outside a flow', async () => {
    expect(await catalog.dynamicData({ appKey: 'forms', key: 'listForms', parameters: {}, connection: null })).toEqual(
      [],
    );
  });
});
