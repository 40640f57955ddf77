import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';
import { registerAndSignIn } from '../support/http.js';

const SMTP = { host: 'smtp.example.com', port: 587, fromEmail: 'robot@example.com', password: 'smtp-secret' };

/** A document with every id it assigns replaced by its order, so that only ids may differ. */
const upToIds = (document: { id: string; steps: { id: string }[] }) => {
  const ids = [document.id, ...document.steps.map((s) => s.id)].map((id, i) => [id, `#${i}`] as const);
  let text = JSON.stringify(document);
  for (const [id, name] of ids) text = text.replaceAll(id, name);
  return JSON.parse(text);
};

const withoutPaths = <D extends { id: string; steps: { id: string; webhookPath: unknown }[] }>(document: D) => ({
  ...document,
  steps: document.steps.map(({ webhookPath: _path, ...step }) => ({ ...step, webhookPath: null })),
});

/**
 * A seeded export document: a webhook trigger, then actions of the test apps referring to earlier
 * steps, some in loops and in the branches of paths steps (listed depth-first, as exports are).
 */
const generatedDocument = (seed: number) => {
  let state = seed + 1;
  const int = (max: number) => {
    state = (state * 48271) % 2147483647;
    return state % max;
  };
  const ids = Array.from({ length: 2 + int(9) }, () => randomUUID());
  const refer = (index: number) => `{{step.${ids[int(index)]}.body.${['name', 'total', 'items.0'][int(3)]}}}`;
  const actions = [
    (i: number) => ({ appKey: 'test-notes', key: 'addNote', parameters: { title: refer(i), copies: int(5) + 1 } }),
    (i: number) => ({ appKey: 'test-webhook', key: 'respondWith', parameters: { statusCode: 200, body: refer(i) } }),
    (i: number) => ({
      appKey: 'smtp',
      key: 'sendEmail',
      parameters: { to: 'a@example.com', subject: refer(i), body: 'Hi' },
    }),
    () => ({ appKey: null, key: null, parameters: {} }),
  ];
  const single = { structuralType: 'single', branchConditions: null };
  /** The containers the next step may go into, innermost last. */
  const open: Array<{ id: string; structuralType: string; fallback?: boolean }> = [];
  const tree = (i: number) => {
    if (open.length > 0 && int(3) === 0) open.pop();
    const parent = open.at(-1);
    const parentStepId = parent?.id ?? null;
    if (parent?.structuralType === 'paths') {
      const fallback = !parent.fallback && int(3) === 0;
      parent.fallback ||= fallback;
      open.push({ id: ids[i] as string, structuralType: 'branch' });
      return {
        parentStepId,
        appKey: 'branches',
        key: 'executeBranch',
        parameters: {},
        structuralType: 'branch',
        branchConditions: fallback ? [] : [{ and: [{ key: refer(i), operator: 'equal', value: `${int(9)}` }] }],
      };
    }
    const kind = open.length < 3 ? int(6) : 0;
    if (kind === 4) {
      open.push({ id: ids[i] as string, structuralType: 'loop' });
      const items = { items: refer(i) };
      return {
        ...single,
        parentStepId,
        appKey: 'loop',
        key: 'loopOverItems',
        parameters: items,
        structuralType: 'loop',
      };
    }
    if (kind === 5) {
      open.push({ id: ids[i] as string, structuralType: 'paths' });
      const mode = { mode: 'all' };
      return { ...single, parentStepId, appKey: 'branches', key: 'execute', parameters: mode, structuralType: 'paths' };
    }
    return { ...single, parentStepId, ...(actions[int(actions.length)] as (i: number) => object)(i) };
  };
  return {
    id: randomUUID(),
    name: `Generated ${seed}`,
    steps: ids.map((id, i) => ({
      id,
      name: int(2) ? `Step ${i}` : null,
      type: i === 0 ? 'trigger' : 'action',
      position: i + 1,
      webhookPath: null,
      ...(i === 0
        ? {
            ...single,
            parentStepId: null,
            appKey: 'test-webhook',
            key: 'catchRawWebhook',
            parameters: { workSynchronously: int(2) === 1 },
          }
        : tree(i)),
    })),
  };
};

describe.each(DIALECTS)('building flows over HTTP (%s)', (dialect) => {
  let world: FlowWorld;
  beforeEach(async () => {
    world = await startFlowWorld(dialect);
  });
  afterEach(() => world.close());

  it('builds, files, duplicates, exports and imports a flow, and shares it as a template', async () => {
    const { token } = world.bob;
    const flow = await world.newFlow(token);
    await world.call('PATCH', `/flows/${flow.id}`, token, { name: 'Mail new orders' });
    await world.call('PATCH', `/steps/${flow.triggerId}`, token, { appKey: 'test-webhook', key: 'catchRawWebhook' });
    const smtp = await world.call('POST', '/apps/smtp/connections', token, { formattedData: SMTP });
    const mail = await world.call('PATCH', `/steps/${flow.actionId}`, token, {
      appKey: 'smtp',
      key: 'sendEmail',
      name: 'Tell sales',
      connectionId: smtp.id,
      parameters: { to: 'sales@example.com', subject: `Order {{step.${flow.triggerId}.body.id}}`, body: 'New order.' },
    });
    expect(mail).toMatchObject({ status: 'completed', appVersion: 1 });
    const published = await world.call('PATCH', `/flows/${flow.id}/status`, token, { active: true });
    expect(published.status).toBe('published');

    const folder = await world.call('POST', '/folders', token, { name: 'Orders' });
    await world.call('PATCH', `/flows/${flow.id}/folder`, token, { folderId: folder.id });
    expect((await world.call('GET', `/flows?folderId=${folder.id}`, token)).map((f: { id: string }) => f.id)).toEqual([
      flow.id,
    ]);
    const copy = await world.call('POST', `/flows/${flow.id}/duplicate`, token);
    expect(copy).toMatchObject({ name: 'Copy of Mail new orders', status: 'draft', folderId: folder.id });
    expect(copy.steps[1].parameters.subject).toBe(`Order {{step.${copy.steps[0].id}.body.id}}`);

    const exported = await world.call('POST', `/flows/${flow.id}/export`, token);
    expect(exported.name).toBe('Mail new orders');
    expect(JSON.stringify(exported)).not.toContain(smtp.id);
    expect(JSON.stringify(exported)).not.toContain(SMTP.password);
    expect(JSON.stringify(exported)).not.toContain(flow.triggerId);
    const imported = await world.call('POST', '/flows/import', token, exported);
    expect(imported).toMatchObject({ name: 'Mail new orders', active: false, userId: world.bob.id, folderId: null });
    expect(imported.steps.map((s: { id: string }) => s.id)).not.toContain(exported.steps[0].id);
    // Without a connection the imported mail step waits for one.
    expect(imported.steps[1]).toMatchObject({ appKey: 'smtp', connectionId: null, status: 'incomplete' });
    const again = await world.call('POST', `/flows/${imported.id}/export`, token);
    expect(upToIds(again)).toEqual(upToIds(exported));

    const template = await world.call('POST', '/admin/templates', world.adminToken, {
      name: 'Order mail',
      flowId: flow.id,
    });
    await world.call('PATCH', '/admin/config', world.adminToken, { enableTemplates: true });
    const carol = await registerAndSignIn(world.instance, {
      fullName: 'Carol',
      email: 'carol@example.com',
      password: 'carol password',
    });
    const offered = await world.call('GET', '/templates', carol.token);
    expect(offered.map((t: { name: string }) => t.name)).toEqual(['Order mail']);
    const carols = await world.call('POST', `/flows?templateId=${template.id}`, carol.token);
    expect(carols).toMatchObject({ name: 'Order mail', userId: carol.id, status: 'draft' });
    const carolsSmtp = await world.call('POST', '/apps/smtp/connections', carol.token, { formattedData: SMTP });
    await world.call('PATCH', `/steps/${carols.steps[1].id}`, carol.token, { connectionId: carolsSmtp.id });
    expect((await world.call('PATCH', `/flows/${carols.id}/status`, carol.token, { active: true })).active).toBe(true);
  });

  it('exports, imports and exports generated flows to the same document up to ids', async () => {
    const kinds = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const generated = generatedDocument(seed);
      for (const step of generated.steps) kinds.add(`${step.structuralType}${step.parentStepId ? ' inside' : ''}`);
      const first = await world.call('POST', '/flows/import', world.bob.token, generated);
      const exported = await world.call('POST', `/flows/${first.id}/export`, world.bob.token);
      const second = await world.call('POST', '/flows/import', world.bob.token, exported);
      const reexported = await world.call('POST', `/flows/${second.id}/export`, world.bob.token);
      expect(upToIds(reexported), `seed ${seed}`).toEqual(upToIds(exported));
      // The generated document said no webhook paths; the export computes them.
      expect(upToIds(withoutPaths(exported)), `seed ${seed}`).toEqual(upToIds(withoutPaths(generated)));
    }
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['branch inside', 'loop', 'paths', 'single', 'single inside']),
    );
  });

  it('refuses documents that are not a flow', async () => {
    const { token } = world.bob;
    const refused = async (body: unknown, field: string) => {
      const res = await world.instance.request('POST', '/flows/import', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    };
    const trigger = { id: 'a', type: 'trigger', position: 1, appKey: 'test-webhook', key: 'catchRawWebhook' };
    const action = { id: 'b', type: 'action', position: 2, appKey: null, key: null };
    await refused({ name: 'No steps', steps: [] }, 'steps');
    await refused({ name: 'Action first', steps: [{ ...trigger, position: 3 }, action] }, 'steps');
    await refused({ name: 'Twice a', steps: [trigger, { ...action, id: 'a' }] }, 'steps');
    await refused({ name: 'Unknown', steps: [trigger, { ...action, appKey: 'nope', key: 'x' }] }, 'steps.1.appKey');
    await refused(
      { name: 'Wrong key', steps: [trigger, { ...action, appKey: 'test-webhook', key: 'x' }] },
      'steps.1.key',
    );
    await refused({ steps: [trigger] }, 'name');
    await refused({ name: 'Bad type', steps: [{ ...trigger, type: 'filter' }] }, 'steps.0.type');
    await refused([trigger], 'general');
    const notJson = await world.instance.request('POST', '/flows/import', {
      token,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(
      (await world.instance.request('POST', '/flows/import', { body: { name: 'x', steps: [trigger] } })).status,
    ).toBe(401);
    const nobody = await world.userWith([{ action: 'read', subject: 'Flow', conditions: [] }]);
    const forbidden = await world.instance.request('POST', '/flows/import', {
      token: nobody.token,
      body: { name: 'x', steps: [trigger, action] },
    });
    expect(forbidden.status).toBe(403);
  });
});
