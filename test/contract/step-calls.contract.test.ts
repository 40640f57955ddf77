import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StepCall } from '../../core/domain/agent.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

/** An agent's model and tool calls under their execution step; conversation memory; signals meant for one call. */
describe.each(DIALECTS)('step calls and agent memory (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let flowId: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    flowId = await insertFlow(fx.repos);
  });
  afterEach(() => fx.close());

  const newRun = async () => {
    const id = randomUUID();
    await fx.repos.executions.insert({
      id,
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: null,
      calledBy: null,
      now: T0,
    });
    return id;
  };

  const call = (executionId: string, overrides: Partial<StepCall> = {}): StepCall => ({
    id: randomUUID(),
    executionId,
    stepKey: 'step-1@',
    stepId: 'step-1',
    seq: 0,
    kind: 'model',
    name: 'gpt-test',
    input: { messages: [{ role: 'user', content: 'Hi \u00e9' }] },
    output: null,
    status: 'running',
    error: null,
    usage: null,
    startedAt: T0,
    finishedAt: null,
    ...overrides,
  });

  it('records each call once per place in its step, and finishes it', async () => {
    const run = await newRun();
    const first = call(run);
    expect(await fx.repos.stepCalls.insert(first)).toBe(true);
    // The same step asking again at that seq (it ran again): the first row stands.
    expect(await fx.repos.stepCalls.insert(call(run, { name: 'other' }))).toBe(false);
    await fx.repos.stepCalls.finish(first.id, {
      status: 'success',
      output: { text: 'Hello', toolCalls: [] },
      error: null,
      usage: { inputTokens: 12, outputTokens: 3 },
      finishedAt: at(1000),
    });
    const tool = call(run, { seq: 1, kind: 'tool', name: 'notes_addNote', input: { arguments: { t: 1 } } });
    await fx.repos.stepCalls.insert(tool);
    await fx.repos.stepCalls.finish(tool.id, {
      status: 'waiting',
      output: null,
      error: null,
      usage: null,
      finishedAt: null,
    });
    const listed = await fx.repos.stepCalls.listByStep(run, 'step-1@');
    expect(listed).toEqual([
      {
        ...first,
        output: { text: 'Hello', toolCalls: [] },
        status: 'success',
        usage: { inputTokens: 12, outputTokens: 3 },
        finishedAt: at(1000),
      },
      { ...tool, status: 'waiting' },
    ]);
    expect(await fx.repos.stepCalls.listByStep(run, 'step-1@loop:1')).toEqual([]);
  });

  it('lists a run’s calls step by step, in the order each step first called', async () => {
    const run = await newRun();
    const other = await newRun();
    await fx.repos.stepCalls.insert(call(run, { stepKey: 'b@', stepId: 'b', seq: 1, startedAt: at(5 * MINUTE) }));
    await fx.repos.stepCalls.insert(call(run, { stepKey: 'a@', stepId: 'a', seq: 0, startedAt: at(MINUTE) }));
    await fx.repos.stepCalls.insert(call(run, { stepKey: 'b@', stepId: 'b', seq: 0, startedAt: at(2 * MINUTE) }));
    await fx.repos.stepCalls.insert(call(run, { stepKey: 'a@', stepId: 'a', seq: 1, startedAt: at(MINUTE) }));
    await fx.repos.stepCalls.insert(call(other));
    const listed = await fx.repos.stepCalls.listByExecution(run);
    expect(listed.map((c) => `${c.stepKey}${c.seq}`)).toEqual(['a@0', 'a@1', 'b@0', 'b@1']);
  });

  it('go with their run when retention removes it', async () => {
    const run = await newRun();
    await fx.repos.stepCalls.insert(call(run));
    await fx.repos.executions.finish(run, 'success', at(MINUTE), null);
    expect(await fx.repos.executions.deleteFinishedBefore(at(2 * MINUTE), 10)).toBe(1);
    expect(await fx.repos.stepCalls.listByExecution(run)).toEqual([]);
  });

  it('keeps the last messages of each conversation', async () => {
    const { agentMemories } = fx.repos;
    expect(await agentMemories.read('agent-1', 'flow:k')).toEqual([]);
    const messages = [1, 2, 3, 4].map((n) => ({ role: 'user', content: `m${n}` }));
    await agentMemories.write('agent-1', 'flow:k', messages, 3, T0);
    expect(await agentMemories.read('agent-1', 'flow:k')).toEqual(messages.slice(1));
    await agentMemories.write('agent-1', 'flow:k', [messages[0]], 3, at(1));
    expect(await agentMemories.read('agent-1', 'flow:k')).toEqual([messages[0]]);
    expect(await agentMemories.read('agent-1', 'flow:other')).toEqual([]);
    expect(await agentMemories.read('agent-2', 'flow:k')).toEqual([]);
  });

  it('gives a signal meant for one call to that call only', async () => {
    const run = await newRun();
    const { runSignals } = fx.repos;
    await runSignals.add({
      id: randomUUID(),
      executionId: run,
      kind: 'approval',
      payload: { approved: true },
      now: T0,
      target: 'call-1',
    });
    await runSignals.add({
      id: randomUUID(),
      executionId: run,
      kind: 'approval',
      payload: { approved: false },
      now: at(1),
      target: 'call-1',
    });
    // A wait step takes no signal meant for a call, and a call none meant for another, nor for anyone.
    expect(await runSignals.take(run, 'approval', 'wait@')).toBeNull();
    expect(await runSignals.take(run, 'approval', 'agent@', 'call-2')).toBeNull();
    await runSignals.add({
      id: randomUUID(),
      executionId: run,
      kind: 'approval',
      payload: { approved: 'any' },
      now: at(2),
    });
    expect(await runSignals.take(run, 'approval', 'agent@', 'call-2')).toBeNull();
    expect(await runSignals.take(run, 'approval', 'agent@', 'call-1')).toMatchObject({ payload: { approved: true } });
    // Asked again, the same: the second approval of that call stays untaken.
    expect(await runSignals.take(run, 'approval', 'agent@', 'call-1')).toMatchObject({ payload: { approved: true } });
    expect(await runSignals.take(run, 'approval', 'agent@')).toMatchObject({ payload: { approved: 'any' } });
  });
});
