import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Agent, DEFAULT_AGENT_LIMITS, DEFAULT_AGENT_MEMORY } from '../../core/domain/agent.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('agents, their tools and runs (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let userId: string;
  let connectionId: string;

  const newAgent = (overrides: Partial<Agent> & { now?: Date } = {}) => ({
    id: randomUUID(),
    userId,
    name: 'Support',
    description: 'Answers tickets',
    instructions: 'Be brief.',
    connectionId,
    model: 'gpt-4o-mini',
    temperature: 0.7,
    limits: DEFAULT_AGENT_LIMITS,
    memory: DEFAULT_AGENT_MEMORY,
    now: T0,
    ...overrides,
  });

  const newTool = (agentId: string, overrides: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    agentId,
    type: 'app' as const,
    appKey: 'slack',
    connectionId,
    actions: ['sendMessageToChannel'],
    flowId: null,
    askFirst: [],
    now: T0,
    ...overrides,
  });

  beforeEach(async () => {
    fx = await openFixture(dialect);
    userId = await insertUser(fx.repos);
    connectionId = randomUUID();
    await fx.repos.connections.insert({
      id: connectionId,
      userId,
      appKey: 'openai',
      oauthClientId: null,
      credentials: { apiKey: 'sk-test' },
      now: T0,
    });
  });
  afterEach(() => fx.close());

  it('store an agent as given and read it back, its fractional temperature exact', async () => {
    const { agents } = fx.repos;
    const { now: _, ...fields } = newAgent();
    const inserted = await agents.insert(newAgent({ id: fields.id }));
    const expected = { ...fields, createdAt: T0, updatedAt: T0 };
    expect(inserted).toEqual(expected);
    expect(await agents.findById(fields.id)).toEqual(expected);
    expect(await agents.findById(randomUUID())).toBeNull();
  });

  it('change only the fields given, and none of a deleted agent', async () => {
    const { agents } = fx.repos;
    const agent = await agents.insert(newAgent());
    const limits = { maxIterations: 3, maxTokens: 500, timeoutSeconds: 30 };
    const updated = await agents.update(agent.id, { name: 'Renamed', temperature: null, limits }, at(MINUTE));
    expect(updated).toEqual({ ...agent, name: 'Renamed', temperature: null, limits, updatedAt: at(MINUTE) });
    await agents.delete(agent.id, at(2 * MINUTE));
    expect(await agents.update(agent.id, { name: 'Again' }, at(3 * MINUTE))).toBeNull();
  });

  it('list the user’s live agents newest first, a page at a time', async () => {
    const { agents } = fx.repos;
    const other = await insertUser(fx.repos);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await agents.insert(newAgent({ name: `A${i}`, now: at(i * MINUTE) }))).id);
    await agents.insert(newAgent({ userId: other, connectionId: null }));
    await agents.delete(ids[1] as string, at(5 * MINUTE));

    const first = await agents.listByUser(userId, { page: 1, perPage: 1 });
    expect(first.items.map((a) => a.id)).toEqual([ids[2]]);
    expect(first).toMatchObject({ total: 2, page: 1, perPage: 1 });
    const second = await agents.listByUser(userId, { page: 2, perPage: 1 });
    expect(second.items.map((a) => a.id)).toEqual([ids[0]]);
  });

  it('delete an agent softly: gone from reads with its tools, its runs kept', async () => {
    const { agents, agentTools, agentExecutions } = fx.repos;
    const agent = await agents.insert(newAgent());
    await agentTools.upsert(newTool(agent.id));
    const run = await agentExecutions.start({
      id: randomUUID(),
      agentId: agent.id,
      executionId: null,
      stepKey: null,
      prompt: 'hi',
      now: T0,
    });
    await agents.delete(agent.id, at(MINUTE));
    expect(await agents.findById(agent.id)).toBeNull();
    expect(await agentTools.listByAgent(agent.id)).toEqual([]);
    expect(await agentExecutions.findById(run.id)).toEqual(run);
  });

  it('keep one tool per app and one per flow, adding again replaces the settings', async () => {
    const { agents, agentTools, flows } = fx.repos;
    const agent = await agents.insert(newAgent());
    const flow = await flows.insert({ id: randomUUID(), userId, name: 'Sub', folderId: null, now: T0 });

    const slack = await agentTools.upsert(newTool(agent.id));
    expect(slack).toEqual({
      id: slack.id,
      agentId: agent.id,
      type: 'app',
      appKey: 'slack',
      connectionId,
      actions: ['sendMessageToChannel'],
      flowId: null,
      askFirst: [],
      createdAt: T0,
      updatedAt: T0,
    });
    const flowTool = await agentTools.upsert(
      newTool(agent.id, { type: 'flow', appKey: null, connectionId: null, actions: [], flowId: flow.id }),
    );
    const replaced = await agentTools.upsert(
      newTool(agent.id, {
        actions: ['findMessage', 'sendMessageToChannel'],
        askFirst: ['sendMessageToChannel'],
        now: at(MINUTE),
      }),
    );
    expect(replaced).toEqual({
      ...slack,
      actions: ['findMessage', 'sendMessageToChannel'],
      askFirst: ['sendMessageToChannel'],
      updatedAt: at(MINUTE),
    });
    const again = await agentTools.upsert(
      newTool(agent.id, { type: 'flow', appKey: null, flowId: flow.id, now: at(MINUTE) }),
    );
    expect(again.id).toBe(flowTool.id);
    await agentTools.upsert(newTool(agent.id, { type: 'mcp', appKey: 'mcp', actions: [] }));
    expect((await agentTools.listByAgent(agent.id)).map((t) => t.appKey ?? t.flowId)).toEqual([
      'mcp',
      'slack',
      flow.id,
    ]);

    expect(await agentTools.delete(agent.id, slack.id)).toBe(true);
    expect(await agentTools.delete(agent.id, slack.id)).toBe(false);
    const otherAgent = await agents.insert(newAgent());
    expect(await agentTools.delete(otherAgent.id, flowTool.id)).toBe(false);
    expect(await agentTools.listByAgent(agent.id)).toHaveLength(2);
  });

  it('start a flow step’s run once, however often the step runs; a test run every time', async () => {
    const { agents, agentExecutions, executions } = fx.repos;
    const agent = await agents.insert(newAgent());
    const flow = await fx.repos.flows.insert({ id: randomUUID(), userId, name: 'F', folderId: null, now: T0 });
    const executionId = randomUUID();
    await executions.insert({
      id: executionId,
      flowId: flow.id,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: null,
      now: T0,
    });
    const start = (now: Date) =>
      agentExecutions.start({ id: randomUUID(), agentId: agent.id, executionId, stepKey: 'step-1', prompt: 'p', now });

    const first = await start(T0);
    expect(first).toEqual({
      id: first.id,
      agentId: agent.id,
      executionId,
      stepKey: 'step-1',
      prompt: 'p',
      output: null,
      status: 'running',
      usage: { inputTokens: 0, outputTokens: 0 },
      createdAt: T0,
      updatedAt: T0,
      finishedAt: null,
    });
    expect(await start(at(MINUTE))).toEqual(first);
    expect(await agentExecutions.findByStep(executionId, 'step-1')).toEqual(first);
    expect(await agentExecutions.findByStep(executionId, 'step-2')).toBeNull();

    const test = () =>
      agentExecutions.start({
        id: randomUUID(),
        agentId: agent.id,
        executionId: null,
        stepKey: null,
        prompt: 't',
        now: T0,
      });
    const [a, b] = [await test(), await test()];
    expect(a.id).not.toBe(b.id);

    const usage = { inputTokens: 12, outputTokens: 34 };
    await agentExecutions.update(
      first.id,
      { status: 'completed', output: 'done', usage, finishedAt: at(MINUTE) },
      at(MINUTE),
    );
    expect(await agentExecutions.findById(first.id)).toEqual({
      ...first,
      status: 'completed',
      output: 'done',
      usage,
      updatedAt: at(MINUTE),
      finishedAt: at(MINUTE),
    });

    const page = await agentExecutions.listByAgent(agent.id, { page: 1, perPage: 2 });
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(2);
  });

  it('prune a flow run’s agent runs with the run, and keep test runs', async () => {
    const { agents, agentExecutions, executions } = fx.repos;
    const agent = await agents.insert(newAgent());
    const flow = await fx.repos.flows.insert({ id: randomUUID(), userId, name: 'F', folderId: null, now: T0 });
    const executionId = randomUUID();
    const run = { flowId: flow.id, testRun: false, untilStepId: null, retryOf: null, flowVersion: null, now: T0 };
    await executions.insert({ ...run, id: executionId });
    const start = (execution: string | null) =>
      agentExecutions.start({
        id: randomUUID(),
        agentId: agent.id,
        executionId: execution,
        stepKey: execution && 'step-1',
        prompt: 'p',
        now: T0,
      });
    const inFlow = await start(executionId);
    const test = await start(null);
    await executions.finish(executionId, 'success', T0, 1);
    expect(await executions.deleteFinishedBefore(at(MINUTE), 10)).toBe(1);
    expect(await agentExecutions.findById(inFlow.id)).toBeNull();
    expect(await agentExecutions.findById(test.id)).toEqual(test);
  });
});
