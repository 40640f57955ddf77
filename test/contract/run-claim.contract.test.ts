import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StepType } from '../../core/domain/flow.js';
import type { NewStep } from '../../ports/flow-repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

/**
 * A worker claims a run and reads what it needs to run it in one call (one statement on
 * Postgres, where the rows travel as JSON): what it reads must be exactly what the plain reads give.
 */
describe.each(DIALECTS)('claiming a run with its steps and records (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let flowId: string;
  let executionId: string;
  const lease = (owner: string, offsetMs = 5 * MINUTE) => ({ owner, until: at(offsetMs) });

  const step = (position: number, over: Partial<NewStep> = {}): NewStep => ({
    id: randomUUID(),
    flowId,
    position,
    type: (position === 1 ? 'trigger' : 'action') as StepType,
    appKey: 'formatter',
    key: 'text',
    name: null,
    parameters: {},
    connectionId: null,
    status: 'completed',
    appVersion: null,
    now: at(123),
    ...over,
  });

  beforeEach(async () => {
    fx = await openFixture(dialect);
    flowId = await insertFlow(fx.repos);
    executionId = randomUUID();
    await fx.repos.executions.insert({
      id: executionId,
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: null,
      now: T0,
    });
  });
  afterEach(() => fx.close());

  it('returns the run as taken, its flow steps and its records, as the plain reads give them', async () => {
    await fx.repos.steps.insert([
      step(3, {
        parameters: { text: 'Grüße "{{x}}"', list: [1, 'two', null, { deep: [true] }], n: 1.5 },
        name: 'Third',
      }),
      step(1, { appKey: 'webhook', key: 'catchRawWebhook', appVersion: 2 }),
      step(2, { status: 'incomplete', appKey: null, key: null }),
    ]);
    const [trigger, second] = await fx.repos.steps.listByFlow(flowId);
    await fx.repos.steps.update(second?.id ?? '', { continueOnFailure: true }, at(456));
    const record = {
      executionId,
      position: 1,
      errorDetails: null,
      now: at(MINUTE + 7),
    };
    await fx.repos.executionSteps.insert({
      ...record,
      id: randomUUID(),
      stepId: trigger?.id ?? '',
      status: 'success',
      dataIn: {},
      dataOut: { body: { name: 'a', items: [1, 2] }, text: 'line\nbreak' },
    });
    await fx.repos.executionSteps.insert({
      ...record,
      id: randomUUID(),
      stepId: second?.id ?? '',
      position: 2,
      status: 'failure',
      dataIn: 'just a string',
      dataOut: null,
      errorDetails: { message: 'boom', status: 500 },
      now: at(MINUTE + 9),
    });

    const claimed = await fx.repos.executions.claim(executionId, lease('w1'), at(MINUTE));

    expect(claimed?.execution).toMatchObject({ id: executionId, flowId, status: 'running', stepAttempts: 0 });
    expect(claimed?.steps).toEqual(await fx.repos.steps.listByFlow(flowId));
    expect(claimed?.steps?.map((s) => s.position)).toEqual([1, 2, 3]);
    expect(claimed?.steps?.[1]?.continueOnFailure).toBe(true);
    expect(claimed?.recorded.map(({ task: _, ...r }) => r)).toEqual(
      await fx.repos.executionSteps.listByExecution(executionId),
    );
    expect(claimed?.recorded.map((r) => r.status)).toEqual(['success', 'failure']);
    // Records written outside the engine (a trigger's, those a retry copies) are not tasks; the engine's are.
    expect(claimed?.recorded.map((r) => r.task)).toEqual([false, false]);
    const third = (await fx.repos.steps.listByFlow(flowId))[2];
    const next = { kind: 'continue', resetAttempts: false } as const;
    const ran = { ...record, id: randomUUID(), stepId: third?.id ?? '', position: 3, status: 'success' as const };
    await fx.repos.executions.recordStep({ ...ran, dataIn: {}, dataOut: null, now: at(MINUTE + 11) }, next);
    const again = await fx.repos.executions.claim(executionId, lease('w1'), at(MINUTE));
    expect(again?.recorded.map((r) => r.task)).toEqual([false, false, true]);
  });

  it('gives a run with no steps or records empty lists', async () => {
    const claimed = await fx.repos.executions.claim(executionId, lease('w1'), at(MINUTE));
    expect(claimed).toMatchObject({ steps: [], recorded: [] });
  });

  it('refuses a run another worker holds until its lease runs out', async () => {
    expect(await fx.repos.executions.claim(executionId, lease('w1', 5 * MINUTE), at(MINUTE))).not.toBeNull();
    expect(await fx.repos.executions.claim(executionId, lease('w2'), at(2 * MINUTE))).toBeNull();
    expect(await fx.repos.executions.claim(executionId, lease('w1', 9 * MINUTE), at(2 * MINUTE))).not.toBeNull();
    expect(await fx.repos.executions.claim(executionId, lease('w2', 20 * MINUTE), at(10 * MINUTE))).not.toBeNull();
    await fx.repos.executions.finish(executionId, 'success', at(11 * MINUTE), 0);
    expect(await fx.repos.executions.claim(executionId, lease('w2', 30 * MINUTE), at(12 * MINUTE))).toBeNull();
  });

  it('finds a flow with its first trigger step, as the plain reads give them', async () => {
    expect(await fx.repos.flows.findWithTrigger(flowId)).toEqual({
      flow: await fx.repos.flows.findById(flowId),
      trigger: null,
    });
    await fx.repos.steps.insert([
      step(2),
      step(1, { appKey: 'webhook', key: 'catchRawWebhook', parameters: { path: ['a', { b: null }] } }),
    ]);
    const found = await fx.repos.flows.findWithTrigger(flowId);
    expect(found?.flow).toEqual(await fx.repos.flows.findById(flowId));
    expect(found?.trigger).toEqual((await fx.repos.steps.listByFlow(flowId))[0]);
    expect(found?.trigger?.type).toBe('trigger');
    expect(await fx.repos.flows.findWithTrigger(randomUUID())).toBeNull();

    // Active on a published version, it runs the version's trigger: the draft's is not read.
    await fx.repos.flows.update(flowId, { active: true, publishedVersion: { id: randomUUID(), number: 1 } }, T0);
    expect(await fx.repos.flows.findWithTrigger(flowId)).toEqual({
      flow: await fx.repos.flows.findById(flowId),
      trigger: null,
    });
    // Unpublished, its webhook keeps test data with the draft's trigger.
    await fx.repos.flows.update(flowId, { active: false }, T0);
    expect((await fx.repos.flows.findWithTrigger(flowId))?.trigger?.id).toBe(found?.trigger?.id);
  });

  it('says when the account of the flow’s owner was removed, and then finds no runnable flow', async () => {
    expect((await fx.repos.executions.claim(executionId, lease('w1'), at(MINUTE)))?.ownerRemoved).toBe(false);
    const flow = await fx.repos.flows.findById(flowId);
    await fx.repos.flows.update(flowId, { active: true }, at(MINUTE));
    expect(await fx.repos.flows.deactivateAllOfUser(flow?.userId ?? '', at(MINUTE))).toEqual([flowId]);
    expect(await fx.repos.flows.deactivateAllOfUser(flow?.userId ?? '', at(MINUTE))).toEqual([]);
    expect((await fx.repos.flows.findById(flowId))?.active).toBe(false);

    await fx.repos.users.softDelete(flow?.userId ?? '', at(2 * MINUTE));
    expect((await fx.repos.executions.claim(executionId, lease('w1'), at(2 * MINUTE)))?.ownerRemoved).toBe(true);
    expect(await fx.repos.flows.findWithTrigger(flowId)).toBeNull();
    // Read as a row, the flow is still there: only running it stops.
    expect(await fx.repos.flows.findById(flowId)).not.toBeNull();
  });

  it('counts the runs accepted and not finished nor paused, per flow', async () => {
    const other = await insertFlow(fx.repos);
    const run = async (flow: string) => {
      const id = randomUUID();
      await fx.repos.executions.insert({
        id,
        flowId: flow,
        testRun: false,
        untilStepId: null,
        retryOf: null,
        flowVersion: null,
        now: T0,
      });
      return id;
    };
    const [claimed, finished, paused] = [await run(other), await run(other), await run(other)];
    await run(other);
    await fx.repos.executions.claim(claimed, lease('w1'), at(MINUTE));
    await fx.repos.executions.finish(finished, 'failure', at(MINUTE), 0);
    await fx.repos.executions.wait(paused, at(5 * MINUTE), 1, at(MINUTE));
    expect(await fx.repos.executions.countRunningByFlow()).toEqual(
      new Map([
        [flowId, 1],
        [other, 2],
      ]),
    );
  });
});
