import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../core/domain/result.js';
import type { AfterStep, NewExecutionStep } from '../../ports/execution-repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('recording a step of a run (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let executionId: string;

  beforeEach(async () => {
    fx = await openFixture(dialect);
    const flowId = await insertFlow(fx.repos);
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
    await fx.repos.executions.wait(executionId, T0, 2, T0);
  });
  afterEach(() => fx.close());

  const record = (stepId: string, over: Partial<NewExecutionStep> = {}): NewExecutionStep => ({
    id: randomUUID(),
    executionId,
    stepId,
    position: 2,
    status: 'success',
    dataIn: { a: 1 },
    dataOut: { b: [2] },
    errorDetails: null,
    now: at(MINUTE),
    ...over,
  });
  const execution = async () => {
    const found = await fx.repos.executions.findById(executionId);
    if (!found) throw new Error('the execution is gone');
    return found;
  };

  const cases: [string, AfterStep, (run: Awaited<ReturnType<typeof execution>>) => void][] = [
    ['goes on', { kind: 'continue', resetAttempts: false }, (run) => expect(run.stepAttempts).toBe(2)],
    ['goes on with no attempts', { kind: 'continue', resetAttempts: true }, (run) => expect(run.stepAttempts).toBe(0)],
    [
      'finishes',
      { kind: 'finish', status: 'failure', tasks: 1 },
      (run) => expect([run.status, run.finishedAt]).toEqual(['failure', at(MINUTE)]),
    ],
    [
      'waits',
      { kind: 'wait', resumeAt: at(5 * MINUTE) },
      (run) => expect([run.status, run.resumeAt, run.stepAttempts]).toEqual(['waiting', at(5 * MINUTE), 0]),
    ],
  ];

  it.each(cases)('records the step and the run %s', async (_, next, check) => {
    expect(await fx.repos.executions.recordStep(record('step-a'), next)).toBe(true);
    const [stored] = await fx.repos.executionSteps.listByExecution(executionId);
    expect(stored).toMatchObject({ stepId: 'step-a', status: 'success', dataIn: { a: 1 }, dataOut: { b: [2] } });
    check(await execution());
  });

  it.each(cases)('refuses a second record of the step and leaves the run as it was, when it %s', async (_, next) => {
    await fx.repos.executions.recordStep(record('step-a', { dataOut: 'first' }), {
      kind: 'continue',
      resetAttempts: false,
    });
    const before = await execution();
    expect(await fx.repos.executions.recordStep(record('step-a', { dataOut: 'second' }), next)).toBe(false);
    expect(await execution()).toEqual(before);
    const steps = await fx.repos.executionSteps.listByExecution(executionId);
    expect(steps.map((s) => s.dataOut)).toEqual(['first']);
  });

  it('reads a run with its whole flow, alone or in a list', async () => {
    const { flowId } = await execution();
    await fx.repos.flows.update(flowId, { active: true, publishedAt: at(2 * MINUTE) }, at(2 * MINUTE));
    const flow = await fx.repos.flows.findById(flowId);
    expect(flow).toMatchObject({ active: true, publishedAt: at(2 * MINUTE), updatedAt: at(2 * MINUTE) });
    expect((await execution()).flow).toEqual(flow);
    const listed = await fx.repos.executions.list({ ownerId: null }, { page: 1, perPage: 10 });
    expect(listed.items.map((run) => run.flow)).toEqual([flow]);
  });

  it('starts runs with their trigger records, all or none', async () => {
    const flowId = (await execution()).flowId;
    const run = (id: string, stepId = 'trigger') => ({
      execution: { id, flowId, testRun: true, untilStepId: null, retryOf: null, flowVersion: null, now: T0 },
      trigger: { ...record(stepId), executionId: id, position: 1, dataOut: { item: id } },
    });
    const [one, two] = [randomUUID(), randomUUID()];
    await fx.repos.executions.start([run(one), run(two)]);
    for (const id of [one, two]) {
      expect(await fx.repos.executions.findById(id)).toMatchObject({ status: 'running', testRun: true });
      expect((await fx.repos.executionSteps.listByExecution(id)).map((s) => s.dataOut)).toEqual([{ item: id }]);
    }
    // The second run's execution id is taken: neither run is started.
    const three = randomUUID();
    await expect(fx.repos.executions.start([run(three), run(one, 'other')])).rejects.toThrow();
    expect(await fx.repos.executions.findById(three)).toBeNull();
    expect(await fx.repos.executionSteps.listByExecution(three)).toEqual([]);
  });

  it('joins the unit of work it is called in, and rolls back with it', async () => {
    const result = await fx.uow.run(async (tx) => {
      await tx.executions.recordStep(record('step-a'), { kind: 'finish', status: 'success', tasks: 1 });
      return ok(undefined);
    });
    expect(result.ok).toBe(true);
    await expect(
      fx.uow.run(async (tx) => {
        await tx.executions.recordStep(record('step-b'), { kind: 'finish', status: 'failure', tasks: 1 });
        throw new Error('the work failed after recording');
      }),
    ).rejects.toThrow('the work failed');
    expect((await fx.repos.executionSteps.listByExecution(executionId)).map((s) => s.stepId)).toEqual(['step-a']);
    expect((await execution()).status).toBe('success');
  });
});
