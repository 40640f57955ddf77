import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';

const KEYS = ['webhook-to-http', 'scheduled-fetch', 'webhook-paths', 'form-to-email'];
/** No licence: built-in templates are for every instance. */
const UNLICENSED = { LICENSE_KEY: '', LICENSE_PUBLIC_KEY: '' };

type Step = {
  id: string;
  appKey: string | null;
  key: string | null;
  structuralType: string;
  parentStepId: string | null;
  parameters: Record<string, unknown>;
  branchConditions: unknown;
};

describe.each(DIALECTS)('built-in templates (%s)', (dialect) => {
  let world: FlowWorld;
  afterEach(() => world.close());

  it('lists the shipped templates to every signed-in user, without a licence', async () => {
    world = await startFlowWorld(dialect, UNLICENSED);
    const listed = await world.instance.request('GET', '/templates/built-in', { token: world.bob.token });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toMatchObject({ type: 'BuiltInTemplate', count: KEYS.length, isArray: true });
    expect(listed.body.data.map((t: { key: string }) => t.key)).toEqual(KEYS);
    const [first] = listed.body.data;
    expect(first).toEqual({
      key: 'webhook-to-http',
      name: 'Forward webhooks to an HTTP endpoint',
      description: expect.any(String),
      apps: [
        { key: 'webhook', name: 'Webhook', iconUrl: '/apps/webhook/assets/favicon.svg' },
        { key: 'http-request', name: 'HTTP Request', iconUrl: '/apps/http-request/assets/favicon.svg' },
      ],
      flowData: { id: 'webhook-to-http', name: first.name, steps: expect.any(Array) },
    });
    // Structural steps are not apps one needs to know.
    const paths = listed.body.data.find((t: { key: string }) => t.key === 'webhook-paths');
    expect(paths.apps.map((a: { key: string }) => a.key)).toEqual(['webhook', 'http-request']);

    // The instance's own templates stay an enterprise feature.
    const own = await world.instance.request('GET', '/templates', { token: world.bob.token });
    expect(own.status).toBe(403);
    expect(own.body.meta.type).toBe('EnterpriseLicenseRequiredError');
    expect((await world.instance.request('GET', '/templates/built-in')).status).toBe(401);
  });

  it('creates a flow from each, owned by the caller, with references following the new ids', async () => {
    world = await startFlowWorld(dialect, UNLICENSED);
    const { token } = world.bob;
    for (const key of KEYS) {
      const flow = await world.call('POST', `/flows?builtInTemplate=${key}`, token);
      expect(flow, key).toMatchObject({ userId: world.bob.id, active: false, status: 'draft' });
      expect((await world.call('GET', `/flows/${flow.id}`, token)).id).toBe(flow.id);
    }
    const flows = await world.call('GET', '/flows', token);
    expect(flows.map((f: { name: string }) => f.name).sort()).toEqual(
      [
        'E-mail each form submission',
        'Fetch a URL every hour and keep the answer',
        'Forward webhooks to an HTTP endpoint',
        'Route webhooks two ways',
      ].sort(),
    );

    const forward = await world.call('POST', '/flows?builtInTemplate=webhook-to-http', token);
    const [trigger, action] = forward.steps as Step[];
    expect(trigger).toMatchObject({ appKey: 'webhook', key: 'catchRawWebhook' });
    expect(action).toMatchObject({ appKey: 'http-request', key: 'customRequest' });
    expect(action?.parameters.data).toBe(`{{step.${trigger?.id}.body}}`);

    const routed = await world.call('POST', '/flows?builtInTemplate=webhook-paths', token);
    const steps = routed.steps as Step[];
    expect(steps.map((s) => s.structuralType)).toEqual(['single', 'paths', 'branch', 'single', 'branch', 'single']);
    const [hook, paths, urgent, , otherwise] = steps;
    expect(urgent).toMatchObject({
      parentStepId: paths?.id,
      branchConditions: [{ and: [{ key: `{{step.${hook?.id}.body.priority}}`, operator: 'equal', value: 'urgent' }] }],
    });
    expect(otherwise).toMatchObject({ parentStepId: paths?.id, branchConditions: [] });
    expect(steps[3]?.parentStepId).toBe(urgent?.id);
    expect(steps[5]?.parentStepId).toBe(otherwise?.id);
  });

  it('refuses an unknown key, a key with a template id, and callers who may not create flows', async () => {
    // Licensed, for a custom role that may only read flows.
    world = await startFlowWorld(dialect);
    const { token } = world.bob;
    const unknown = await world.instance.request('POST', '/flows?builtInTemplate=no-such-template', { token });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      errors: { builtInTemplate: [`must be one of: ${KEYS.join(', ')}.`] },
      meta: { type: 'ValidationError' },
    });
    const both = await world.instance.request(
      'POST',
      '/flows?builtInTemplate=webhook-to-http&templateId=00000000-0000-4000-8000-000000000000',
      { token },
    );
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual({ builtInTemplate: ['cannot be given with templateId.'] });
    // Nothing was made by the refused calls.
    expect(await world.call('GET', '/flows', token)).toEqual([]);

    const reader = await world.userWith([{ action: 'read', subject: 'Flow', conditions: [] }]);
    const refused = await world.instance.request('POST', '/flows?builtInTemplate=webhook-to-http', {
      token: reader.token,
    });
    expect(refused.status).toBe(403);
    expect((await world.instance.request('POST', '/flows?builtInTemplate=webhook-to-http')).status).toBe(401);
    // Who may not create flows learns nothing about the query.
    const unknownRefused = await world.instance.request('POST', '/flows?builtInTemplate=nope', { token: reader.token });
    expect(unknownRefused.status).toBe(403);
    expect((await world.instance.request('POST', '/flows?builtInTemplate=nope')).status).toBe(401);
    // A reader still sees the gallery: it is documentation of what one could build.
    expect((await world.instance.request('GET', '/templates/built-in', { token: reader.token })).status).toBe(200);
  });
});
