import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { defineAction, defineApp, fieldsAuth, noAuth, text } from '../../adapters/apps/sdk/index.js';
import type { ChatMessage, ChatRequest } from '../../ports/language-model.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, executionDetail, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawExecute, rawQuery } from '../support/raw-sql.js';
import { TEST_ICON } from '../support/test-icon.js';

/** What the scripted model was asked, and how often the ledger's action really ran. */
const world = { chats: [] as ChatRequest[], entries: [] as string[] };

const toolAnswers = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role === 'tool');

/**
 * A model that plays one script from the conversation it is given, so that a step run again gets
 * the same turn: first it adds a ledger entry (a tool that asks first), then calls the flow tool,
 * then answers with what the tools said.
 */
const scriptedModel = defineApp({
  key: 'test-model',
  name: 'Test model',
  description: 'A scripted language model.',
  icon: TEST_ICON,
  primaryColor: '#222222',
  categories: ['ai'],
  version: 1,
  auth: fieldsAuth({
    fields: { apiKey: text({ label: 'API key', required: true, secret: true }) },
    verify: async () => ({ screenName: 'model' }),
  }),
  triggers: [],
  actions: [],
  languageModel: () => ({
    defaultModel: 'scripted-1',
    async chat(request) {
      world.chats.push(JSON.parse(JSON.stringify(request)));
      const answers = toolAnswers(request.messages);
      const usage = { inputTokens: 100, outputTokens: 20 };
      if (!request.tools?.length) {
        // An agent without tools says what it heard in the conversation so far.
        const heard = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
        return { text: `Heard: ${heard.join(', ')}`, toolCalls: [], usage, model: 'scripted-1', finishReason: 'stop' };
      }
      const flowTool = request.tools?.find((t) => t.name.startsWith('flow_'))?.name ?? 'flow_missing';
      if (answers.length === 0) {
        return {
          text: '',
          toolCalls: [{ id: 'c1', name: 'test-ledger_addEntry', arguments: { note: 'coffee' } }],
          usage,
          model: 'scripted-1',
          finishReason: 'tool_calls',
        };
      }
      if (answers.length === 1) {
        return {
          text: '',
          toolCalls: [{ id: 'c2', name: flowTool, arguments: { n: '21' } }],
          usage,
          model: 'scripted-1',
          finishReason: 'tool_calls',
        };
      }
      return {
        text: `Done: ${answers.map((a) => (a.role === 'tool' ? a.content : '')).join(' | ')}`,
        toolCalls: [],
        usage,
        model: 'scripted-1',
        finishReason: 'stop',
      };
    },
  }),
});

const ledger = defineApp({
  key: 'test-ledger',
  name: 'Test ledger',
  description: 'Writes entries; counts how often it really did.',
  icon: TEST_ICON,
  primaryColor: '#333333',
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [
    defineAction({
      key: 'addEntry',
      name: 'Add an entry',
      description: 'Adds an entry to the ledger.',
      arguments: { note: text({ label: 'Note', required: true }) },
      async run(ctx) {
        world.entries.push(ctx.parameters.note);
        return { entry: world.entries.length, note: ctx.parameters.note, key: ctx.execution?.idempotencyKey };
      },
    }),
  ],
});

/**
 * The `agents` app's step on the engine, on both databases: an agent calls an app action that asks
 * first (approved over the API) and a sub-flow, and a restart of the instance in between makes no
 * finished call again.
 */
describe.each(DIALECTS)('agent steps on the engine (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    world.chats = [];
    world.entries = [];
    instance = await startTestInstance(
      dialect,
      { WEBHOOK_URL: 'http://hooks.test' },
      { apps: [...builtInApps, scriptedModel, ledger] },
      { onDisk: true },
    );
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const runsOf = async (flowId: string) =>
    (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data.filter(
      (e: { testRun: boolean }) => !e.testRun,
    );

  /** An agent of the signed-in user, stored as the agents API stores it; with a ledger and a flow tool when given the flow. */
  const insertAgent = async (
    connectionId: string,
    calleeFlowId: string | null,
    memory = { enabled: false, maxMessages: 20 },
  ) => {
    const [user] = await rawQuery(instance.database.url, 'select id from users limit 1');
    const agentId = randomUUID();
    const now = new Date().toISOString();
    const limits = JSON.stringify({ maxIterations: 5, maxTokens: 10_000, timeoutSeconds: 3600 });
    await rawExecute(
      instance.database.url,
      `insert into agents (id, user_id, name, description, instructions, connection_id, model, temperature, limits, memory, created_at, updated_at)
         values ('${agentId}', '${user.id}', 'Bookkeeper', null, 'Keep the books.', '${connectionId}', 'scripted-1', null, '${limits}', '${JSON.stringify(memory)}', '${now}', '${now}');`,
    );
    if (calleeFlowId === null) return agentId;
    await rawExecute(
      instance.database.url,
      `insert into agent_tools (id, agent_id, type, app_key, connection_id, actions, flow_id, ask_first, created_at, updated_at)
         values ('${randomUUID()}', '${agentId}', 'app', 'test-ledger', null, '["addEntry"]', null, '["addEntry"]', '${now}', '${now}');
       insert into agent_tools (id, agent_id, type, app_key, connection_id, actions, flow_id, ask_first, created_at, updated_at)
         values ('${randomUUID()}', '${agentId}', 'flow', null, null, '[]', '${calleeFlowId}', '[]', '${now}', '${now}');`,
    );
    return agentId;
  };

  it('runs an agent that calls an approved action and a sub-flow, across a restart, making each call once', async () => {
    const connection = await instance.request('POST', '/apps/test-model/connections', {
      token,
      body: { formattedData: { apiKey: 'sk-test' } },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    const callee = await buildFlow(instance, token, { appKey: 'flows', key: 'calledByFlow' }, [
      ([t]) => ({
        appKey: 'flows',
        key: 'returnResult',
        parameters: { result: `{"doubled": "{{step.${t}.n}}{{step.${t}.n}}"}` },
      }),
    ]);
    await callee.call('PATCH', `/flows/${callee.flowId}`, { name: 'Double' });
    await callee.call('PATCH', `/flows/${callee.flowId}/status`, { active: true });
    const agentId = await insertAgent(connection.body.data.id, callee.flowId);

    const caller = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      ([t]) => ({ appKey: 'agents', key: 'runAgent', parameters: { agentId, prompt: `Book {{step.${t}.body.item}}` } }),
    ]);
    await caller.call('PATCH', `/flows/${caller.flowId}/status`, { active: true });
    await sendWebhook(instance, caller.flowId, { item: 'coffee' });

    const [run] = await eventually(
      () => runsOf(caller.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'waiting',
      15000,
    );
    const waiting = (await instance.request('GET', `/executions/${run.id}/calls`, { token })).body.data;
    expect(waiting.map((c: any) => [c.seq, c.kind, c.name, c.status])).toEqual([
      [0, 'model', 'scripted-1', 'success'],
      [1, 'tool', 'test-ledger_addEntry', 'waiting'],
    ]);
    expect(waiting[0]).toMatchObject({
      usage: { inputTokens: 100, outputTokens: 20 },
      stepKey: `${caller.stepIds[1]}@`,
    });
    expect(world.entries).toEqual([]);

    // The waiting run holds no worker and outlives the process.
    await instance.restart();
    const approve = await instance.request('POST', `/executions/${run.id}/calls/${waiting[1].id}/approval`, {
      token,
      body: { approved: true },
    });
    expect(approve.status, JSON.stringify(approve.body)).toBe(202);
    const [done] = await eventually(
      () => runsOf(caller.flowId),
      (runs: any[]) => runs.length === 1 && (runs[0].status === 'success' || runs[0].status === 'failure'),
      20000,
    );
    const detail = await executionDetail(instance, token, done.id);
    expect(done.status, JSON.stringify(detail.steps)).toBe('success');
    expect(detail.steps[1].dataOut).toMatchObject({
      output: `Done: {"entry":1,"key":${JSON.stringify(`${run.id}:${caller.stepIds[1]}@:1`)},"note":"coffee"} | {"doubled":"2121"}`,
      iterations: 3,
      toolCalls: 2,
      usage: { inputTokens: 300, outputTokens: 60 },
    });
    // Each call made once: the ledger wrote one entry, the model answered three times.
    expect(world.entries).toEqual(['coffee']);
    expect(world.chats).toHaveLength(3);
    const calls = (await instance.request('GET', `/executions/${run.id}/calls`, { token })).body.data;
    expect(calls.map((c: any) => [c.seq, c.kind, c.status])).toEqual([
      [0, 'model', 'success'],
      [1, 'tool', 'success'],
      [2, 'model', 'success'],
      [3, 'tool', 'success'],
      [4, 'model', 'success'],
    ]);
    expect(calls[3]).toMatchObject({ name: 'flow_Double', output: { doubled: '2121' } });
    // The sub-flow ran once, as a call of the agent's step.
    expect(await runsOf(callee.flowId)).toHaveLength(1);
    const [agentRun] = await rawQuery(instance.database.url, 'select status, output from agent_executions');
    expect(agentRun).toMatchObject({ status: 'completed', output: detail.steps[1].dataOut.output });
  });

  it('tells the model a denied call was denied, and refuses an answer to a call that does not wait', async () => {
    const connection = await instance.request('POST', '/apps/test-model/connections', {
      token,
      body: { formattedData: { apiKey: 'sk-test' } },
    });
    const callee = await buildFlow(instance, token, { appKey: 'flows', key: 'calledByFlow' }, [
      () => ({ appKey: 'flows', key: 'returnResult', parameters: { result: '{"ok": true}' } }),
    ]);
    await callee.call('PATCH', `/flows/${callee.flowId}/status`, { active: true });
    const agentId = await insertAgent(connection.body.data.id, callee.flowId);
    const caller = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'agents', key: 'runAgent', parameters: { agentId, prompt: 'Book it' } }),
    ]);
    await caller.call('PATCH', `/flows/${caller.flowId}/status`, { active: true });
    await sendWebhook(instance, caller.flowId, {});
    const [run] = await eventually(
      () => runsOf(caller.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'waiting',
      15000,
    );
    const [, waiting] = (await instance.request('GET', `/executions/${run.id}/calls`, { token })).body.data;
    const model = (await instance.request('GET', `/executions/${run.id}/calls`, { token })).body.data[0];
    const notWaiting = await instance.request('POST', `/executions/${run.id}/calls/${model.id}/approval`, {
      token,
      body: { approved: true },
    });
    expect(notWaiting.status).toBe(422);
    const bad = await instance.request('POST', `/executions/${run.id}/calls/${waiting.id}/approval`, {
      token,
      body: { approved: 'yes' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['approved']);
    const deny = await instance.request('POST', `/executions/${run.id}/calls/${waiting.id}/approval`, {
      token,
      body: { approved: false },
    });
    expect(deny.status).toBe(202);
    await eventually(
      () => runsOf(caller.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'success',
      20000,
    );
    expect(world.entries).toEqual([]);
    const calls = (await instance.request('GET', `/executions/${run.id}/calls`, { token })).body.data;
    expect(calls[1]).toMatchObject({ status: 'denied', error: 'A person denied this call.' });
    expect(world.chats[1]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });

  it('remembers a conversation per flow and key when the agent’s memory is on', async () => {
    const connection = await instance.request('POST', '/apps/test-model/connections', {
      token,
      body: { formattedData: { apiKey: 'sk-test' } },
    });
    const agentId = await insertAgent(connection.body.data.id, null, { enabled: true, maxMessages: 3 });
    const flow = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      ([t]) => ({
        appKey: 'agents',
        key: 'runAgent',
        parameters: { agentId, prompt: `{{step.${t}.body.say}}`, conversationKey: `{{step.${t}.body.chat}}` },
      }),
    ]);
    await flow.call('PATCH', `/flows/${flow.flowId}/status`, { active: true });
    const say = async (chat: string, words: string, count: number) => {
      await sendWebhook(instance, flow.flowId, { chat, say: words });
      const runs = await eventually(
        () => runsOf(flow.flowId),
        (list: any[]) => list.length === count && list.every((r) => r.status === 'success'),
        15000,
      );
      return (await executionDetail(instance, token, runs[0].id)).steps[1].dataOut.output;
    };
    expect(await say('a', 'one', 1)).toBe('Heard: one');
    expect(await say('a', 'two', 2)).toBe('Heard: one, two');
    expect(await say('b', 'other', 3)).toBe('Heard: other');
    // The last three messages kept: "one" is forgotten by now.
    expect(await say('a', 'three', 4)).toBe('Heard: two, three');
  });
});
