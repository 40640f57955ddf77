import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowHook } from '../../ports/flow-hook-repository.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('instant triggers’ hooks (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let flowId: string;

  const hook = (overrides: Partial<FlowHook> = {}): FlowHook => ({
    flowId,
    appKey: 'stripe',
    triggerKey: 'newEvent',
    connectionId: 'connection-1',
    parameters: { events: ['charge.succeeded'], nested: { b: 2, a: 1 } },
    webhookUrl: `https://conveyor.example/webhooks/flows/${flowId}`,
    state: { id: 'we_123', secret: 'whsec_do-not-store-in-clear' },
    createdAt: T0,
    ...overrides,
  });

  beforeEach(async () => {
    fx = await openFixture(dialect);
    flowId = await insertFlow(fx.repos);
  });
  afterEach(() => fx.close());

  it('keep one hook per flow, with its state sealed at rest', async () => {
    const { flowHooks } = fx.repos;
    expect(await flowHooks.find(flowId)).toBeNull();
    expect(await flowHooks.insert(hook())).toBe(true);
    expect(await flowHooks.find(flowId)).toEqual(hook());
    // A second registration for the flow (two publishes at once) is not kept.
    expect(await flowHooks.insert(hook({ state: { id: 'we_456', secret: 'x' }, createdAt: at(MINUTE) }))).toBe(false);
    expect((await flowHooks.find(flowId))?.state).toEqual({ id: 'we_123', secret: 'whsec_do-not-store-in-clear' });

    const raw = await fx.handle.db
      .selectFrom('flow_hooks')
      .select('state')
      .where('flow_id', '=', flowId)
      .executeTakeFirst();
    expect(raw?.state).toMatch(/^v1\./);
    expect(raw?.state).not.toContain('whsec_do-not-store-in-clear');

    await flowHooks.delete(flowId);
    expect(await flowHooks.find(flowId)).toBeNull();
    expect(await flowHooks.insert(hook({ state: null }))).toBe(true);
    expect((await flowHooks.find(flowId))?.state).toBeNull();
  });

  it('outlive their flow, and list the flows that are gone or unpublished', async () => {
    const { flowHooks, flows } = fx.repos;
    const published = await insertFlow(fx.repos);
    await flows.update(published, { active: true }, T0);
    const unpublished = await insertFlow(fx.repos);
    const deleted = await insertFlow(fx.repos);
    for (const id of [published, unpublished, deleted]) await flowHooks.insert(hook({ flowId: id }));
    await flows.delete(deleted);
    expect((await flowHooks.find(deleted))?.appKey).toBe('stripe');
    expect((await flowHooks.listStale(10)).sort()).toEqual([unpublished, deleted].sort());
    expect(await flowHooks.listStale(1)).toHaveLength(1);
  });
});
