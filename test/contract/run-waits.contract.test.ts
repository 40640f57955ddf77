import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

/** Runs that wait for something outside them: signals, wakes, calls, and records per loop iteration. */
describe.each(DIALECTS)('waiting runs repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let flowId: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    const alice = await insertUser(fx.repos);
    flowId = randomUUID();
    await fx.repos.flows.insert({ id: flowId, userId: alice, name: 'Waits', folderId: null, now: T0 });
  });
  afterEach(() => fx.close());

  const newRun = async (calledBy: { executionId: string; stepKey: string; depth: number } | null = null) => {
    const id = randomUUID();
    await fx.repos.executions.insert({
      id,
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: null,
      calledBy,
      now: T0,
    });
    return id;
  };

  it('wakes a waiting run at once, and a run on its way to sleep goes on instead of sleeping', async () => {
    const id = await newRun();
    const claimed = await fx.repos.executions.claim(id, { owner: 'w', until: at(MINUTE) }, T0);
    const seen = claimed?.execution.wakes ?? -1;
    expect(seen).toBe(0);
    // Woken while still running: nothing to queue, but the suspend that follows does not sleep.
    expect(await fx.repos.executions.wake(id, at(1000))).toBe(false);
    const resumeAt = await fx.repos.executions.suspend(id, at(60 * MINUTE), seen, at(2000));
    expect(resumeAt).toEqual(at(2000));

    const again = await fx.repos.executions.claim(id, { owner: 'w', until: at(3 * MINUTE) }, at(2000));
    expect(again?.execution.wakes).toBe(1);
    expect(await fx.repos.executions.suspend(id, at(60 * MINUTE), 1, at(2500))).toEqual(at(60 * MINUTE));
    // Asleep: a wake makes it due now, and says so, so that the caller queues it.
    expect(await fx.repos.executions.wake(id, at(3000))).toBe(true);
    const found = await fx.repos.executions.findById(id);
    expect(found).toMatchObject({ status: 'waiting', resumeAt: at(3000), wakes: 2 });
    await fx.repos.executions.finish(id, 'success', at(4000), null);
    expect(await fx.repos.executions.wake(id, at(5000))).toBe(false);
  });

  it('gives each signal to one step, the same one every time it asks, oldest first', async () => {
    const id = await newRun();
    expect(await fx.repos.runSignals.take(id, 'webhook', 'a@')).toBeNull();
    await fx.repos.runSignals.add({ id: randomUUID(), executionId: id, kind: 'webhook', payload: { n: 1 }, now: T0 });
    await fx.repos.runSignals.add({
      id: randomUUID(),
      executionId: id,
      kind: 'webhook',
      payload: { n: 2 },
      now: at(1),
    });
    await fx.repos.runSignals.add({
      id: randomUUID(),
      executionId: id,
      kind: 'approval',
      payload: { ok: 1 },
      now: at(2),
    });
    expect(await fx.repos.runSignals.take(id, 'webhook', 'a@')).toMatchObject({ kind: 'webhook', payload: { n: 1 } });
    expect(await fx.repos.runSignals.take(id, 'webhook', 'a@')).toMatchObject({ payload: { n: 1 } });
    expect(await fx.repos.runSignals.take(id, 'webhook', 'b@loop:1')).toMatchObject({ payload: { n: 2 } });
    expect(await fx.repos.runSignals.take(id, 'webhook', 'c@')).toBeNull();
    expect(await fx.repos.runSignals.take(id, 'approval', 'c@')).toMatchObject({ payload: { ok: 1 } });
  });

  it('keeps the first value a step keeps', async () => {
    const id = await newRun();
    expect(await fx.repos.runSignals.keep(id, 'a@', { deadline: 5 }, randomUUID(), T0)).toEqual({ deadline: 5 });
    expect(await fx.repos.runSignals.keep(id, 'a@', { deadline: 9 }, randomUUID(), T0)).toEqual({ deadline: 5 });
    expect(await fx.repos.runSignals.keep(id, 'a@loop:0', 'other', randomUUID(), T0)).toBe('other');
    // What a step keeps is never a signal another step could take.
    expect(await fx.repos.runSignals.take(id, 'webhook', 'z@')).toBeNull();
  });

  it('makes a resume token once, and finds the one run a calling step started', async () => {
    const parent = await newRun();
    const token = await fx.repos.executions.resumeToken(parent, 'first');
    expect(token).toBe('first');
    expect(await fx.repos.executions.resumeToken(parent, 'second')).toBe('first');
    const child = await newRun({ executionId: parent, stepKey: 'call@', depth: 1 });
    expect(await fx.repos.executions.findCalled(parent, 'call@')).toMatchObject({
      id: child,
      parentExecutionId: parent,
      callDepth: 1,
    });
    expect(await fx.repos.executions.findCalled(parent, 'call@loop:1')).toBeNull();
    // One run per calling step: a second start of the same call is refused by the database.
    await expect(newRun({ executionId: parent, stepKey: 'call@', depth: 1 })).rejects.toThrow();
  });

  it('finds waiting runs whose wake was lost: a called run ended, or a signal came, after they slept', async () => {
    const parent = await newRun();
    const child = await newRun({ executionId: parent, stepKey: 'call@', depth: 1 });
    await fx.repos.executions.claim(parent, { owner: 'w', until: at(MINUTE) }, T0);
    await fx.repos.executions.suspend(parent, at(60 * MINUTE), 0, at(1000));
    expect(await fx.repos.executions.findUnwoken(10)).toEqual([]);
    // The called run ends; the process dies before it wakes its caller.
    await fx.repos.executions.finish(child, 'success', at(2000), null);
    expect(await fx.repos.executions.findUnwoken(10)).toEqual([parent]);
    // Woken, it is no longer missed.
    expect(await fx.repos.executions.wake(parent, at(3000))).toBe(true);
    expect(await fx.repos.executions.findUnwoken(10)).toEqual([]);

    const other = await newRun();
    await fx.repos.executions.claim(other, { owner: 'w', until: at(MINUTE) }, T0);
    await fx.repos.executions.suspend(other, at(60 * MINUTE), 0, at(1000));
    await fx.repos.runSignals.keep(other, 'a@', 'kept', randomUUID(), at(2000));
    expect(await fx.repos.executions.findUnwoken(10)).toEqual([]);
    await fx.repos.runSignals.add({
      id: randomUUID(),
      executionId: other,
      kind: 'webhook',
      payload: {},
      now: at(2000),
    });
    expect(await fx.repos.executions.findUnwoken(10)).toEqual([other]);
  });

  it('records a step once per loop iteration, with where it ran, in the order the records were made', async () => {
    const id = await newRun();
    const stepId = randomUUID();
    const loopId = randomUUID();
    const record = (scope: string, iteration: number, now: Date) =>
      fx.repos.executions.recordStep(
        {
          id: randomUUID(),
          executionId: id,
          stepId,
          position: 3,
          status: 'success',
          dataIn: {},
          dataOut: { scope },
          errorDetails: null,
          scope,
          parentStepId: loopId,
          branchId: null,
          iteration,
          now,
        },
        { kind: 'continue', resetAttempts: false },
      );
    expect(await record(`${loopId}:0`, 0, at(1))).toBe(true);
    expect(await record(`${loopId}:1`, 1, at(2))).toBe(true);
    expect(await record(`${loopId}:1`, 1, at(3))).toBe(false);
    const records = await fx.repos.executionSteps.listByExecution(id);
    expect(records.map((r) => [r.scope, r.iteration, r.parentStepId])).toEqual([
      [`${loopId}:0`, 0, loopId],
      [`${loopId}:1`, 1, loopId],
    ]);
  });
});
