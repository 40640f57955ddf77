import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/**
 * Issue 19: a published flow runs its published version while its draft is edited; every publish
 * is an immutable version; history, compare, restore and discard; runs name their version and
 * finish on it; stale changes of a draft answer 409.
 */
describe.each(DIALECTS)('flow versions (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const hook = async (flowId: string, body: unknown = {}) => {
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(204);
  };

  /** The flow's finished real runs, newest first, once there are `count`. */
  const runs = (flowId: string, count: number) =>
    eventually(
      async (): Promise<any[]> =>
        (await instance.request('GET', `/executions?flowId=${flowId}&perPage=50`, { token })).body.data.filter(
          (e: { testRun: boolean }) => !e.testRun,
        ),
      (rows) => rows.length === count && rows.every((r) => r.status === 'success' || r.status === 'failure'),
      10_000,
    );

  /** What the run's last step stored: which version's value it ran with. */
  const storedBy = async (executionId: string) => {
    const detail = (await instance.request('GET', `/executions/${executionId}`, { token })).body.data;
    return detail.steps.at(-1).dataOut.value;
  };

  /** A webhook flow whose action stores `value`. */
  const storing = (value: string) =>
    buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} }, [
      () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'version', value } }),
    ]);

  it('runs the published version while the draft changes; publish, restore and discard over HTTP', async () => {
    const { flowId, stepIds, call } = await storing('one');
    const draftOnly = await call('GET', `/flows/${flowId}`);
    expect(draftOnly).toMatchObject({ active: false, publishedVersion: null, hasDraftChanges: true });

    const v1 = await call('PATCH', `/flows/${flowId}/status`, { active: true });
    expect(v1).toMatchObject({ active: true, publishedVersion: { number: 1 }, hasDraftChanges: false });

    // Edit the live flow: the draft changes, the published version keeps running.
    const edited = await call('PATCH', `/steps/${stepIds[1]}`, { parameters: { key: 'version', value: 'two' } });
    expect(edited.parameters.value).toBe('two');
    expect(await call('GET', `/flows/${flowId}`)).toMatchObject({
      active: true,
      publishedVersion: v1.publishedVersion,
      hasDraftChanges: true,
    });
    await hook(flowId);
    const [first] = await runs(flowId, 1);
    expect(first.flowVersion).toEqual(v1.publishedVersion);
    expect(await storedBy(first.id)).toBe('one');

    // Publish the draft with a message: version 2 runs from now on.
    const published = await instance.request('POST', `/flows/${flowId}/versions`, {
      token,
      body: { message: 'Store two' },
    });
    expect(published.status).toBe(201);
    expect(published.body.meta.type).toBe('FlowVersionDetail');
    const v2 = published.body.data;
    expect(v2).toMatchObject({ number: 2, message: 'Store two', flowId, name: v1.name });
    expect(v2.steps[1].parameters).toEqual({ key: 'version', value: 'two' });
    await hook(flowId);
    const [second] = await runs(flowId, 2);
    expect(second.flowVersion).toEqual({ id: v2.id, number: 2 });
    expect(await storedBy(second.id)).toBe('two');

    // Nothing changed since: publishing again has nothing to publish.
    const nothing = await instance.request('POST', `/flows/${flowId}/versions`, { token, body: {} });
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors).toEqual({ general: ['The draft has no changes to publish.'] });

    // History: newest first, who and when; one version's steps as they were.
    const me = await call('GET', '/users/me');
    const history = await instance.request('GET', `/flows/${flowId}/versions`, { token });
    expect(history.body.meta).toMatchObject({ type: 'FlowVersion', count: 2 });
    expect(history.body.data.map((v: any) => [v.number, v.message, v.publishedBy])).toEqual([
      [2, 'Store two', me.id],
      [1, null, me.id],
    ]);
    expect(history.body.data[0].createdAt).toBeGreaterThanOrEqual(history.body.data[1].createdAt);
    const old = await call('GET', `/flows/${flowId}/versions/${v1.publishedVersion.id}`);
    expect(old.steps.map((s: any) => s.id)).toEqual(stepIds);
    expect(old.steps[1].parameters).toEqual({ key: 'version', value: 'one' });

    // Compare: which steps and which of their fields changed.
    const compared = await call('GET', `/flows/${flowId}/versions/compare?from=${v1.publishedVersion.id}&to=${v2.id}`);
    expect(compared).toEqual({
      from: { versionId: v1.publishedVersion.id, number: 1 },
      to: { versionId: v2.id, number: 2 },
      changes: {
        name: null,
        added: [],
        removed: [],
        changed: [{ stepId: stepIds[1], label: 'datastore · setValue', fields: ['parameters.value'] }],
      },
    });
    const badSide = await instance.request('GET', `/flows/${flowId}/versions/compare?from=latest`, { token });
    expect(badSide.status).toBe(422);
    expect(badSide.body.errors).toEqual({ from: ['must be a version id or draft.'] });

    // Restore version 1 as the draft, then publish it: runs store "one" again, as version 3.
    const restored = await call('POST', `/flows/${flowId}/versions/${v1.publishedVersion.id}/restore`);
    expect(restored).toMatchObject({ publishedVersion: { number: 2 }, hasDraftChanges: true });
    expect(restored.steps[1].parameters).toEqual({ key: 'version', value: 'one' });
    const v3 = await call('PATCH', `/flows/${flowId}/status`, { active: true });
    expect(v3).toMatchObject({ publishedVersion: { number: 3 }, hasDraftChanges: false });
    await hook(flowId);
    const [third] = await runs(flowId, 3);
    expect(third.flowVersion).toEqual(v3.publishedVersion);
    expect(await storedBy(third.id)).toBe('one');
    const same = await call('GET', `/flows/${flowId}/versions/compare?from=${v1.publishedVersion.id}`);
    expect(same.to).toEqual({ versionId: null, number: null });
    expect(same.changes).toEqual({ name: null, added: [], removed: [], changed: [] });

    // Discard: a renamed draft with an added step goes back to the published version.
    await call('PATCH', `/flows/${flowId}`, { name: 'Renamed' });
    const added = await call('POST', `/flows/${flowId}/steps`, { previousStepId: stepIds[1] });
    const changes = await call('GET', `/flows/${flowId}/versions/compare?from=${v3.publishedVersion.id}&to=draft`);
    expect(changes.changes.name).toEqual({ from: v1.name, to: 'Renamed' });
    expect(changes.changes.added.map((s: any) => s.stepId)).toEqual([added.id]);
    const discarded = await instance.request('DELETE', `/flows/${flowId}/draft`, { token });
    expect(discarded.status).toBe(200);
    expect(discarded.body.data).toMatchObject({ name: v1.name, hasDraftChanges: false });
    expect(discarded.body.data.steps.map((s: any) => s.id)).toEqual(stepIds);

    // Stopping keeps the versions; starting again with no change runs version 3, with no new version.
    expect(await call('PATCH', `/flows/${flowId}/status`, { active: false })).toMatchObject({
      active: false,
      status: 'draft',
      publishedVersion: { number: 3 },
    });
    expect(await call('PATCH', `/flows/${flowId}/status`, { active: true })).toMatchObject({
      active: true,
      publishedVersion: { number: 3 },
    });
    expect((await instance.request('GET', `/flows/${flowId}/versions`, { token })).body.meta.count).toBe(3);

    // Another flow's version is not this flow's.
    const other = await storing('x');
    const foreign = await instance.request('GET', `/flows/${other.flowId}/versions/${v2.id}`, { token });
    expect(foreign.status).toBe(404);
    const neverPublished = await instance.request('DELETE', `/flows/${other.flowId}/draft`, { token });
    expect(neverPublished.status).toBe(422);
  });

  it('finishes a run in flight on its own version when a new one is published', async () => {
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        // 1.2 s: long enough to publish a new version while the run waits.
        () => ({ appKey: 'delay', key: 'delayFor', parameters: { delayForUnit: 'minutes', delayForValue: 0.02 } }),
        () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'version', value: 'one' } }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await hook(flowId);
    const [waiting] = await eventually(
      async (): Promise<any[]> => (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data,
      (rows) => rows[0]?.status === 'waiting',
    );

    await call('PATCH', `/steps/${stepIds[2]}`, { parameters: { key: 'version', value: 'two' } });
    await call('POST', `/flows/${flowId}/versions`, { message: 'while a run waits' });
    await hook(flowId);

    const finished = await runs(flowId, 2);
    const byId = new Map(finished.map((run) => [run.id, run]));
    const late = finished.find((run) => run.id !== waiting.id);
    expect(byId.get(waiting.id)?.flowVersion.number).toBe(1);
    expect(await storedBy(waiting.id)).toBe('one');
    expect(late.flowVersion.number).toBe(2);
    expect(await storedBy(late.id)).toBe('two');
  });

  it('refuses a change of the draft based on an older revision with 409, and says the current one', async () => {
    const { flowId, stepIds } = await storing('one');
    const read = await instance.request('GET', `/flows/${flowId}`, { token });
    const etag = read.headers.get('etag');
    expect(etag).toBe(`"${read.body.data.draftRevision}"`);

    const first = await instance.request('PATCH', `/steps/${stepIds[1]}`, {
      token,
      headers: { 'if-match': etag as string },
      body: { name: 'Mine' },
    });
    expect(first.status).toBe(200);
    const next = first.headers.get('etag');
    expect(next).toBe(`"${read.body.data.draftRevision + 1}"`);

    // A second editor still holding the first revision loses nothing silently.
    const stale = await instance.request('PATCH', `/flows/${flowId}`, {
      token,
      headers: { 'if-match': etag as string },
      body: { name: 'Theirs' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.meta.type).toBe('DraftConflictError');
    expect(stale.body.errors.general[0]).toMatch(/changed by someone else .*reload/);
    expect(stale.headers.get('etag')).toBe(next);
    const after = (await instance.request('GET', `/flows/${flowId}`, { token })).body.data;
    expect(after.name).not.toBe('Theirs');
    expect(after.steps[1].name).toBe('Mine');

    for (const [method, path, body] of [
      ['POST', `/flows/${flowId}/steps`, { previousStepId: stepIds[0] }],
      ['DELETE', `/steps/${stepIds[1]}`, undefined],
      ['PATCH', `/flows/${flowId}/status`, { active: true }],
      ['POST', `/flows/${flowId}/versions`, {}],
    ] as const) {
      const res = await instance.request(method, path, { token, headers: { 'if-match': etag as string }, body });
      expect(res.status, `${method} ${path}`).toBe(409);
    }

    const garbled = await instance.request('PATCH', `/flows/${flowId}`, {
      token,
      headers: { 'if-match': 'yesterday' },
      body: { name: 'Theirs' },
    });
    expect(garbled.status).toBe(422);
    expect(Object.keys(garbled.body.errors)).toEqual(['If-Match']);

    // With the current revision, or without any (Automatisch's clients), the change goes in.
    const current = await instance.request('PATCH', `/flows/${flowId}`, {
      token,
      headers: { 'if-match': next as string },
      body: { name: 'Theirs, reloaded' },
    });
    expect(current.status).toBe(200);
    const blind = await instance.request('PATCH', `/flows/${flowId}`, { token, body: { name: 'Last' } });
    expect(blind.status).toBe(200);
    expect(blind.body.data.draftRevision).toBe(read.body.data.draftRevision + 3);
  });
});
