import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../adapters/auth/manual-clock.js';
import type { ChatAnswer, ChatMessage, ChatRequest, ToolCall } from '../../ports/language-model.js';
import type { ChatOutcome } from '../../ports/step-runner.js';
import { InMemoryStepCalls } from '../../test/fakes/step-calls.js';
import { type AgentLimits, DEFAULT_AGENT_LIMITS } from '../domain/agent.js';
import { openJournal } from './agent-journal.js';
import { type AgentLoop, type LoopOutcome, runAgentLoop } from './agent-loop.js';
import type { RunnableTool, ToolResult } from './agent-tools.js';

const ids = { next: randomUUID, ordered: randomUUID };
const place = { executionId: randomUUID(), stepKey: 'agent-step@', stepId: 'agent-step' };

const toolCall = (name: string, args: Record<string, unknown> = {}, id = `call_${name}`): ToolCall => ({
  id,
  name,
  arguments: args,
});
const answer = (text: string, toolCalls: ToolCall[] = [], tokens = 10): ChatAnswer => ({
  text,
  toolCalls,
  usage: { inputTokens: tokens, outputTokens: tokens },
  model: 'scripted-1',
  finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
});

/** A model that answers from a script, one answer per call; a function in the script may throw (a crash). */
class ScriptedModel {
  readonly requests: ChatRequest[] = [];
  constructor(private readonly script: Array<ChatAnswer | ChatOutcome | (() => never)>) {}
  chat = async (request: ChatRequest): Promise<ChatOutcome> => {
    this.requests.push(JSON.parse(JSON.stringify(request)));
    const next = this.script.shift();
    if (next === undefined) throw new Error('the script ran out');
    if (typeof next === 'function') next();
    return 'kind' in (next as object) ? (next as ChatOutcome) : { kind: 'success', answer: next as ChatAnswer };
  };
}

/** A tool whose answers come from a function; it counts its calls and keeps their keys. */
const fakeTool = (
  name: string,
  run: (args: Readonly<Record<string, unknown>>) => ToolResult | Promise<ToolResult>,
  askFirst = false,
) => {
  const keys: string[] = [];
  const tool: RunnableTool = {
    spec: { name, description: `The ${name} tool`, inputSchema: { type: 'object', properties: {} } },
    askFirst,
    call: async (args, context) => {
      keys.push(context.idempotencyKey);
      return run(args);
    },
  };
  return { tool, keys };
};

describe('the agent loop', () => {
  let clock: ManualClock;
  let store: InMemoryStepCalls;
  let approvals: Map<string, boolean>;
  beforeEach(() => {
    clock = new ManualClock(new Date('2026-05-01T10:00:00Z'));
    store = new InMemoryStepCalls();
    approvals = new Map();
  });

  /** One turn of the step: the journal read from the store, as a step run again reads it. */
  const turn = async (
    model: ScriptedModel,
    tools: RunnableTool[],
    options: { limits?: Partial<AgentLimits>; messages?: ChatMessage[] } = {},
  ): Promise<LoopOutcome> => {
    const journal = await openJournal({ clock, ids }, place, store);
    const loop: AgentLoop = {
      messages: options.messages ?? [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Add a note' },
      ],
      model: 'scripted-1',
      temperature: 0.2,
      limits: { ...DEFAULT_AGENT_LIMITS, ...options.limits },
      startedAt: new Date('2026-05-01T10:00:00Z'),
      now: () => clock.now(),
      journal,
      toolbox: async () => ({
        specs: tools.map((t) => t.spec),
        find: (name) => tools.find((t) => t.spec.name === name) ?? null,
        skipped: [],
      }),
      chat: model.chat,
      approvalOf: async (call) => (approvals.has(call.id) ? { approved: approvals.get(call.id) === true } : null),
      idempotencyKey: (seq) => `${place.executionId}:${place.stepKey}:${seq}`,
    };
    return runAgentLoop(loop);
  };

  it('answers without tools, recording the model call and its usage', async () => {
    const model = new ScriptedModel([answer('Done.', [], 7)]);
    const outcome = await turn(model, []);
    expect(outcome).toMatchObject({
      kind: 'done',
      text: 'Done.',
      progress: { iterations: 1, toolCalls: 0, usage: { inputTokens: 7, outputTokens: 7 } },
    });
    expect(store.rows).toMatchObject([
      {
        seq: 0,
        kind: 'model',
        name: 'scripted-1',
        status: 'success',
        usage: { inputTokens: 7, outputTokens: 7 },
        input: { model: 'scripted-1', temperature: 0.2, tools: [] },
      },
    ]);
    expect(model.requests[0]).toMatchObject({ model: 'scripted-1', temperature: 0.2 });
    expect(model.requests[0]?.tools).toBeUndefined();
  });

  it('makes the tool calls the model asks for, tells it their answers and failures, and goes on', async () => {
    const notes = fakeTool('notes_add', (args) => ({ kind: 'answer', output: { title: args.title, id: 7 } }));
    const broken = fakeTool('mail_send', () => ({ kind: 'error', message: 'SMTP said no.' }));
    const model = new ScriptedModel([
      answer('', [toolCall('notes_add', { title: 'Milk' }), toolCall('mail_send'), toolCall('made_up')]),
      answer('Added note 7; the mail failed.'),
    ]);
    const outcome = await turn(model, [notes.tool, broken.tool]);
    expect(outcome).toMatchObject({ kind: 'done', text: 'Added note 7; the mail failed.' });
    expect(outcome.progress).toMatchObject({
      iterations: 2,
      toolCalls: 3,
      usage: { inputTokens: 20, outputTokens: 20 },
    });
    expect(store.rows.map((r) => [r.seq, r.kind, r.name, r.status, r.error])).toEqual([
      [0, 'model', 'scripted-1', 'success', null],
      [1, 'tool', 'notes_add', 'success', null],
      [2, 'tool', 'mail_send', 'failure', 'SMTP said no.'],
      [3, 'tool', 'made_up', 'failure', 'There is no tool named “made_up”.'],
      [4, 'model', 'scripted-1', 'success', null],
    ]);
    expect(store.rows[1]).toMatchObject({ input: { toolCallId: 'call_notes_add', arguments: { title: 'Milk' } } });
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['notes_add', 'mail_send']);
    expect(model.requests[1]?.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [toolCall('notes_add', { title: 'Milk' }), toolCall('mail_send'), toolCall('made_up')],
      },
      { role: 'tool', toolCallId: 'call_notes_add', name: 'notes_add', content: '{"id":7,"title":"Milk"}' },
      {
        role: 'tool',
        toolCallId: 'call_mail_send',
        name: 'mail_send',
        content: '{"error":"SMTP said no."}',
        isError: true,
      },
      {
        role: 'tool',
        toolCallId: 'call_made_up',
        name: 'made_up',
        content: '{"error":"There is no tool named “made_up”."}',
        isError: true,
      },
    ]);
    // The second model call's recorded input is what was new since the first's answer: the tools' answers.
    expect(store.rows[4]?.input).toMatchObject({ messages: [{ role: 'tool' }, { role: 'tool' }, { role: 'tool' }] });
  });

  it('run again after a crash, never makes a finished call again and makes the unfinished model call again', async () => {
    const notes = fakeTool('notes_add', () => ({ kind: 'answer', output: { ok: true } }));
    const crash = () => {
      throw new Error('the process died');
    };
    await expect(turn(new ScriptedModel([answer('', [toolCall('notes_add')]), crash]), [notes.tool])).rejects.toThrow(
      'the process died',
    );
    expect(store.rows.map((r) => r.status)).toEqual(['success', 'success', 'running']);

    const model = new ScriptedModel([answer('All done.')]);
    const outcome = await turn(model, [notes.tool], {
      // The conversation comes from the first call's record, not from what the step would build now.
      messages: [{ role: 'user', content: 'something else' }],
    });
    expect(outcome).toMatchObject({ kind: 'done', text: 'All done.', progress: { iterations: 2, toolCalls: 1 } });
    expect(notes.keys).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(store.rows.map((r) => r.status)).toEqual(['success', 'success', 'success']);
  });

  it('makes a tool call a crash interrupted again, with the same idempotency key', async () => {
    let calls = 0;
    const charge = fakeTool('stripe_charge', () => {
      calls += 1;
      if (calls === 1) throw new Error('the process died');
      return { kind: 'answer', output: { charged: true } };
    });
    await expect(turn(new ScriptedModel([answer('', [toolCall('stripe_charge')])]), [charge.tool])).rejects.toThrow(
      'the process died',
    );
    expect(store.rows[1]).toMatchObject({ kind: 'tool', status: 'running' });
    const outcome = await turn(new ScriptedModel([answer('Charged.')]), [charge.tool]);
    expect(outcome.kind).toBe('done');
    expect(charge.keys).toEqual([`${place.executionId}:agent-step@:1`, `${place.executionId}:agent-step@:1`]);
  });

  it('waits for a person before a tool that asks first, then runs it, or tells the model it was denied', async () => {
    const send = fakeTool('mail_send', () => ({ kind: 'answer', output: { sent: true } }), true);
    const script = () => [
      answer('', [toolCall('mail_send', { to: 'a' }, 'c1')]),
      answer('', [toolCall('mail_send', { to: 'b' }, 'c2')]),
      answer('One sent, one denied.'),
    ];
    const model = new ScriptedModel(script());
    const first = await turn(model, [send.tool]);
    expect(first).toMatchObject({ kind: 'suspend' });
    expect(store.rows[1]).toMatchObject({ kind: 'tool', status: 'waiting', name: 'mail_send' });
    expect(send.keys).toHaveLength(0);
    // Woken without an answer (another signal): it waits on, and nothing is called again.
    expect((await turn(new ScriptedModel([]), [send.tool])).kind).toBe('suspend');

    approvals.set(store.rows[1]?.id as string, true);
    const second = await turn(new ScriptedModel(script().slice(1)), [send.tool]);
    expect(second.kind).toBe('suspend');
    expect(send.keys).toHaveLength(1);
    expect(store.rows.map((r) => r.status)).toEqual(['success', 'success', 'success', 'waiting']);

    approvals.set(store.rows[3]?.id as string, false);
    const last = new ScriptedModel(script().slice(2));
    const third = await turn(last, [send.tool]);
    expect(third).toMatchObject({ kind: 'done', text: 'One sent, one denied.', progress: { toolCalls: 2 } });
    expect(send.keys).toHaveLength(1);
    expect(store.rows[3]).toMatchObject({ status: 'denied', error: 'A person denied this call.' });
    expect(last.requests[0]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true, toolCallId: 'c2' });
  });

  it('suspends while a tool waits for a called run, and goes on with its answer', async () => {
    let ended = false;
    const flow = fakeTool('flow_report', () =>
      ended ? { kind: 'answer', output: { rows: 3 } } : { kind: 'suspend', until: new Date('2026-05-01T11:00:00Z') },
    );
    const script = () => [answer('', [toolCall('flow_report')]), answer('3 rows.')];
    const first = await turn(new ScriptedModel(script()), [flow.tool], { limits: { timeoutSeconds: 3600 * 24 } });
    expect(first).toMatchObject({ kind: 'suspend', until: new Date('2026-05-01T11:00:00Z') });
    ended = true;
    const second = await turn(new ScriptedModel(script().slice(1)), [flow.tool], {
      limits: { timeoutSeconds: 3600 * 24 },
    });
    expect(second).toMatchObject({ kind: 'done', text: '3 rows.' });
    // Called again with the same key: the flow call is the same run (RunControl's calls are idempotent by key).
    expect(new Set(flow.keys).size).toBe(1);
  });

  it('stops at its limit of model calls, of tokens and of time, saying what it did', async () => {
    const loopy = fakeTool('again', () => ({ kind: 'answer', output: 'again' }));
    const forever = () => Array.from({ length: 10 }, () => answer('', [toolCall('again')], 50));
    const byCalls = await turn(new ScriptedModel(forever()), [loopy.tool], { limits: { maxIterations: 3 } });
    expect(byCalls).toMatchObject({
      kind: 'failed',
      failure: {
        retryable: false,
        message: 'The agent reached its limit of 3 model calls (3 model calls, 3 tool calls, 300 tokens).',
      },
    });

    store = new InMemoryStepCalls();
    const byTokens = await turn(new ScriptedModel(forever()), [loopy.tool], { limits: { maxTokens: 250 } });
    expect(byTokens).toMatchObject({
      kind: 'failed',
      failure: {
        retryable: false,
        message: 'The agent reached its limit of 250 tokens (3 model calls, 3 tool calls, 300 tokens).',
      },
    });

    store = new InMemoryStepCalls();
    const slow = fakeTool('slow', () => {
      clock.advance(40_000);
      return { kind: 'answer', output: 'ok' };
    });
    const byTime = await turn(
      new ScriptedModel(Array.from({ length: 10 }, () => answer('', [toolCall('slow')]))),
      [slow.tool],
      {
        limits: { timeoutSeconds: 60 },
      },
    );
    expect(byTime).toMatchObject({ kind: 'failed', failure: { retryable: false } });
    expect(byTime.kind === 'failed' && byTime.failure.message).toBe(
      'The agent ran out of time (60 s) after 2 model calls, 2 tool calls, 40 tokens.',
    );
  });

  it('fails as the model failed, and the next turn asks the model again', async () => {
    const first = await turn(
      new ScriptedModel([
        { kind: 'failure', failure: { message: 'Rate limited.', retryable: true, retryAfterMs: 2000 } },
      ]),
      [],
    );
    expect(first).toMatchObject({
      kind: 'failed',
      failure: { message: 'The model failed: Rate limited.', retryable: true, retryAfterMs: 2000 },
    });
    expect(store.rows[0]).toMatchObject({ status: 'failure', error: 'Rate limited.' });
    const second = await turn(new ScriptedModel([answer('Hello.')]), []);
    expect(second).toMatchObject({ kind: 'done', text: 'Hello.', progress: { iterations: 1 } });
    expect(store.rows).toHaveLength(1);
  });

  it('times out waiting for a person, without calling the tool', async () => {
    const send = fakeTool('mail_send', () => ({ kind: 'answer', output: {} }), true);
    const first = await turn(new ScriptedModel([answer('', [toolCall('mail_send')])]), [send.tool], {
      limits: { timeoutSeconds: 300 },
    });
    expect(first).toMatchObject({ kind: 'suspend', until: new Date('2026-05-01T10:05:00Z') });
    clock.advance(301_000);
    const late = await turn(new ScriptedModel([]), [send.tool], { limits: { timeoutSeconds: 300 } });
    expect(late).toMatchObject({ kind: 'failed', failure: { retryable: false } });
    expect(store.rows[1]).toMatchObject({ status: 'failure', error: 'Nobody approved in time.' });
    expect(send.keys).toHaveLength(0);
  });
});
