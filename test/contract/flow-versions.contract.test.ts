import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowVersion, VersionStep } from '../../core/domain/flow-version.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const PAGE = { page: 1, perPage: 10 };

describe.each(DIALECTS)('flow versions repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  let flowId: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos);
    flowId = randomUUID();
    await fx.repos.flows.insert({ id: flowId, userId: alice, name: 'Orders', folderId: null, now: T0 });
  });
  afterEach(() => fx.close());

  const step: VersionStep = {
    id: randomUUID(),
    type: 'trigger',
    appKey: 'webhook',
    key: 'catchRawWebhook',
    name: null,
    position: 1,
    status: 'completed',
    // Keys in an order Postgres' jsonb would not keep: what is compared is the value.
    parameters: { zeta: 1, alpha: { nested: [1, 'two'] } },
    connectionId: null,
    appVersion: 1,
    continueOnFailure: false,
    structuralType: 'single',
    parentStepId: null,
    branchConditions: null,
  };

  const version = (number: number, over: Partial<FlowVersion> = {}): FlowVersion => ({
    id: randomUUID(),
    flowId,
    number,
    message: number === 1 ? null : `v${number}`,
    publishedBy: alice,
    name: 'Orders',
    steps: [step],
    createdAt: at(number * MINUTE),
    ...over,
  });

  it('stores a version as it was given, and lists the flow’s newest first', async () => {
    const first = version(1);
    const second = version(2, { name: 'Orders, renamed' });
    await fx.repos.flowVersions.insert(first);
    await fx.repos.flowVersions.insert(second);
    expect(await fx.repos.flowVersions.findById(first.id)).toEqual(first);
    expect(await fx.repos.flowVersions.findById(randomUUID())).toBeNull();
    expect(await fx.repos.flowVersions.lastNumber(flowId)).toBe(2);
    expect(await fx.repos.flowVersions.lastNumber(randomUUID())).toBe(0);
    const page = await fx.repos.flowVersions.list(flowId, PAGE);
    expect(page.total).toBe(2);
    expect(page.items).toEqual([second, first].map(({ steps: _s, name: _n, ...summary }) => summary));
    await expect(fx.repos.flowVersions.insert(version(2))).rejects.toThrow();
  });

  it('points a flow at its published version and revises its draft only from the revision it was based on', async () => {
    const v1 = version(1);
    await fx.repos.flowVersions.insert(v1);
    await fx.repos.flows.update(
      flowId,
      { active: true, publishedVersion: { id: v1.id, number: 1 }, draftBaseVersionId: v1.id, draftChanged: false },
      at(MINUTE),
    );
    expect(await fx.repos.flows.findById(flowId)).toMatchObject({
      publishedVersion: { id: v1.id, number: 1 },
      hasDraftChanges: false,
      draftRevision: 0,
    });
    expect(await fx.repos.flows.reviseDraft(flowId, 0, at(2 * MINUTE))).toBe(1);
    expect(await fx.repos.flows.reviseDraft(flowId, 0, at(2 * MINUTE))).toBeNull();
    expect(await fx.repos.flows.reviseDraft(flowId, null, at(3 * MINUTE))).toBe(2);
    expect(await fx.repos.flows.reviseDraft(randomUUID(), null, at(3 * MINUTE))).toBeNull();
    expect(await fx.repos.flows.findById(flowId)).toMatchObject({ draftRevision: 2, updatedAt: at(3 * MINUTE) });
  });

  it('prunes versions beyond the newest kept that no flow and no run points to, and nothing else', async () => {
    const versions = [1, 2, 3, 4, 5, 6].map((n) => version(n));
    for (const v of versions) await fx.repos.flowVersions.insert(v);
    const [v1, v2, v3, , v5, v6] = versions as [
      FlowVersion,
      FlowVersion,
      FlowVersion,
      FlowVersion,
      FlowVersion,
      FlowVersion,
    ];
    // Published v5, its draft restored from v2, a run on v1: all kept, however old.
    await fx.repos.flows.update(
      flowId,
      { active: true, publishedVersion: { id: v5.id, number: 5 }, draftBaseVersionId: v2.id },
      T0,
    );
    await fx.repos.executions.insert({
      id: randomUUID(),
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: { id: v1.id, number: 1 },
      now: T0,
    });
    // Another flow's versions are its own business.
    const other = randomUUID();
    await fx.repos.flows.insert({ id: other, userId: alice, name: 'Other', folderId: null, now: T0 });
    const theirs = version(1, { flowId: other });
    await fx.repos.flowVersions.insert(theirs);

    expect(await fx.repos.flowVersions.prune(2, 100)).toBe(2);
    const left = (await fx.repos.flowVersions.list(flowId, PAGE)).items.map((v) => v.number);
    expect(left).toEqual([6, 5, 2, 1]);
    expect(await fx.repos.flowVersions.findById(v3.id)).toBeNull();
    expect(await fx.repos.flowVersions.findById(theirs.id)).not.toBeNull();
    expect(await fx.repos.flowVersions.prune(2, 100)).toBe(0);
    // The newest are kept whatever points where.
    expect(await fx.repos.flowVersions.findById(v6.id)).not.toBeNull();
  });

  it('records the version a run runs on', async () => {
    const v1 = version(1);
    await fx.repos.flowVersions.insert(v1);
    const id = randomUUID();
    await fx.repos.executions.insert({
      id,
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: { id: v1.id, number: 1 },
      now: T0,
    });
    expect((await fx.repos.executions.findById(id))?.flowVersion).toEqual({ id: v1.id, number: 1 });
    // A run on a version is claimed without the draft's steps: the engine reads the version's.
    const claimed = await fx.repos.executions.claim(id, { owner: 'w', until: at(MINUTE) }, T0);
    expect(claimed?.steps).toBeNull();
    expect(claimed?.execution.flowVersion).toEqual({ id: v1.id, number: 1 });
  });
});
