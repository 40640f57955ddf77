import type { ChatAnswer, ChatMessage, ChatRequest, TokenUsage, ToolCall } from '../../ports/language-model.js';
import type { ChatOutcome, StepFailure } from '../../ports/step-runner.js';
import type { AgentLimits, StepCall } from '../domain/agent.js';
import { type CallJournal, hasEnded } from './agent-journal.js';
import type { Toolbox } from './agent-tools.js';

/** What the loop did so far: the step's output, or the failure's account of it. */
export interface AgentProgress {
  /** Model calls. */
  readonly iterations: number;
  readonly usage: TokenUsage;
  readonly toolCalls: number;
}

export type LoopOutcome =
  | {
      readonly kind: 'done';
      readonly text: string;
      /** The conversation after the system prompt: what memory keeps. */
      readonly conversation: readonly ChatMessage[];
      readonly progress: AgentProgress;
    }
  /** Waiting for a person's approval or a called run: run the step again at `until` or when woken. */
  | { readonly kind: 'suspend'; readonly until: Date; readonly progress: AgentProgress }
  | { readonly kind: 'failed'; readonly failure: StepFailure; readonly progress: AgentProgress };

/** A person's answer to a call that asks first; null while nobody answered. */
export type ApprovalOf = (call: StepCall) => Promise<{ readonly approved: boolean } | null>;

export interface AgentLoop {
  /** The conversation to start from (system prompt, memory, the prompt), unless the journal has one. */
  readonly messages: readonly ChatMessage[];
  readonly model: string | undefined;
  readonly temperature: number | undefined;
  readonly limits: AgentLimits;
  /** When the agent's run started: the time-out counts from there. */
  readonly startedAt: Date;
  readonly now: () => Date;
  readonly journal: CallJournal;
  /** Built when a call is to be made, not when the journal answers. */
  readonly toolbox: () => Promise<Toolbox>;
  readonly chat: (request: ChatRequest) => Promise<ChatOutcome>;
  /** Null where nobody can answer (tools asking first are left out there). */
  readonly approvalOf: ApprovalOf | null;
  /** The same for every turn of one call: `<step's key>:<seq>`. */
  readonly idempotencyKey: (seq: number) => string;
}

/**
 * JSON with every object's keys sorted: what the model is told is the same whether the answer
 * comes from the tool or from its record (Postgres' jsonb keeps keys in an order of its own).
 */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** What the model is told a tool answered. */
const toolMessage = (call: ToolCall, ended: StepCall): ChatMessage => {
  const failed = ended.status !== 'success';
  const content = failed ? canonicalJson({ error: ended.error ?? 'The call failed.' }) : canonicalJson(ended.output);
  return { role: 'tool', toolCallId: call.id, name: call.name, content, ...(failed && { isError: true }) };
};

const assistantMessage = (answer: ChatAnswer): ChatMessage => ({
  role: 'assistant',
  content: answer.text,
  ...(answer.toolCalls.length > 0 && { toolCalls: answer.toolCalls }),
});

const DENIED = 'A person denied this call.';

/**
 * The agent's tool-calling loop: ask the model, make the tool calls it asks for, tell it their
 * answers, until it answers without calling tools or a limit is reached. Every call goes through
 * the journal: a call the journal has as ended is not made again (its recorded answer is used), so
 * the loop can run again from the start after a crash, a suspend or a retry and carry on where it
 * was. A model call that did not end is made again; a tool call that did not end is made again with
 * the same idempotency key; a call waiting for a person waits on.
 */
export const runAgentLoop = async (loop: AgentLoop): Promise<LoopOutcome> => {
  const { journal, limits } = loop;
  const deadline = new Date(loop.startedAt.getTime() + limits.timeoutSeconds * 1000);
  let iterations = 0;
  let toolCalls = 0;
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const progress = (): AgentProgress => ({ iterations, usage, toolCalls });
  const failed = (message: string, retryable = false, retryAfterMs?: number): LoopOutcome => ({
    kind: 'failed',
    failure: { message, retryable, ...(retryAfterMs !== undefined && { retryAfterMs }) },
    progress: progress(),
  });
  const spent = () => usage.inputTokens + usage.outputTokens;
  const done = () =>
    `${iterations} model call${iterations === 1 ? '' : 's'}, ${toolCalls} tool call${toolCalls === 1 ? '' : 's'}, ${spent()} tokens`;
  const late = () => loop.now() >= deadline;
  const timedOut = () => failed(`The agent ran out of time (${limits.timeoutSeconds} s) after ${done()}.`);
  const suspend = (until: Date): LoopOutcome => ({
    kind: 'suspend',
    until: until < deadline ? until : deadline,
    progress: progress(),
  });

  // A step run again starts from the conversation its first model call was given (memory as read then).
  const first = journal.at(0);
  const messages: ChatMessage[] = [
    ...(first?.kind === 'model' ? ((first.input as { messages: ChatMessage[] }).messages ?? []) : loop.messages),
  ];
  let sentUpTo = 0;
  let seq = 0;
  for (;;) {
    // The model's turn.
    let call = journal.at(seq);
    let answer: ChatAnswer;
    if (call && call.kind !== 'model') return failed('The agent’s recorded calls do not match its run.');
    if (call?.status === 'success') {
      answer = call.output as ChatAnswer;
    } else {
      if (iterations >= limits.maxIterations)
        return failed(`The agent reached its limit of ${limits.maxIterations} model calls (${done()}).`);
      if (spent() >= limits.maxTokens)
        return failed(`The agent reached its limit of ${limits.maxTokens} tokens (${done()}).`);
      if (late()) return timedOut();
      const toolbox = await loop.toolbox();
      const input = {
        ...(loop.model !== undefined && { model: loop.model }),
        ...(loop.temperature !== undefined && { temperature: loop.temperature }),
        messages: messages.slice(sentUpTo),
        tools: toolbox.specs.map((spec) => spec.name),
      };
      call =
        call ?? (await journal.begin(seq, { kind: 'model', name: loop.model ?? 'default', input, status: 'running' }));
      const outcome = await loop.chat({
        ...(loop.model !== undefined && { model: loop.model }),
        ...(loop.temperature !== undefined && { temperature: loop.temperature }),
        messages,
        ...(toolbox.specs.length > 0 && { tools: toolbox.specs }),
      });
      if (outcome.kind === 'failure') {
        const { failure } = outcome;
        await journal.update(call, { status: 'failure', output: null, error: failure.message, usage: null });
        return failed(`The model failed: ${failure.message}`, failure.retryable, failure.retryAfterMs);
      }
      answer = outcome.answer;
      const ended = await journal.update(call, {
        status: 'success',
        output: answer,
        error: null,
        usage: answer.usage,
      });
      if (ended.status !== 'success') return failed(`The model’s answer could not be kept: ${ended.error}`);
    }
    iterations += 1;
    usage = {
      inputTokens: usage.inputTokens + answer.usage.inputTokens,
      outputTokens: usage.outputTokens + answer.usage.outputTokens,
    };
    messages.push(assistantMessage(answer));
    sentUpTo = messages.length;
    seq += 1;
    if (answer.toolCalls.length === 0) {
      return {
        kind: 'done',
        text: answer.text,
        conversation: messages.filter((m) => m.role !== 'system'),
        progress: progress(),
      };
    }

    // The tools' turn, one call after the other, as the model listed them.
    for (const toolCall of answer.toolCalls) {
      let tool = journal.at(seq);
      if (tool && (tool.kind !== 'tool' || tool.name !== toolCall.name))
        return failed('The agent’s recorded calls do not match its run.');
      if (!tool || !hasEnded(tool)) {
        const made = await makeToolCall(loop, seq, toolCall, tool, late);
        if (made.kind === 'suspend') return suspend(made.until);
        if (made.kind === 'late') return timedOut();
        tool = made.call;
      }
      messages.push(toolMessage(toolCall, tool));
      toolCalls += 1;
      seq += 1;
    }
  }
};

type Made =
  | { readonly kind: 'ended'; readonly call: StepCall }
  | { readonly kind: 'suspend'; readonly until: Date }
  | { readonly kind: 'late' };

/** How long a call waiting for a person sleeps before it looks again on its own (a signal wakes it sooner). */
const APPROVAL_RECHECK_MS = 24 * 60 * 60_000;

/** One tool call, from where its journal left it: not begun, waiting for a person, or begun. */
const makeToolCall = async (
  loop: AgentLoop,
  seq: number,
  toolCall: ToolCall,
  recorded: StepCall | null,
  late: () => boolean,
): Promise<Made> => {
  const { journal } = loop;
  const fail = async (call: StepCall, error: string): Promise<Made> => ({
    kind: 'ended',
    call: await journal.update(call, { status: 'failure', output: null, error, usage: null }),
  });
  const toolbox = await loop.toolbox();
  const tool = toolbox.find(toolCall.name);
  const input = { toolCallId: toolCall.id, arguments: toolCall.arguments };
  if (!recorded && late()) return { kind: 'late' };
  const asks = tool?.askFirst === true && loop.approvalOf !== null;
  let call =
    recorded ??
    (await journal.begin(seq, { kind: 'tool', name: toolCall.name, input, status: asks ? 'waiting' : 'running' }));
  if (!tool) return fail(call, `There is no tool named “${toolCall.name}”.`);

  if (call.status === 'waiting') {
    const answer = loop.approvalOf ? await loop.approvalOf(call) : null;
    if (!answer) {
      if (late()) {
        await journal.update(call, { status: 'failure', output: null, error: 'Nobody approved in time.', usage: null });
        return { kind: 'late' };
      }
      return { kind: 'suspend', until: new Date(loop.now().getTime() + APPROVAL_RECHECK_MS) };
    }
    if (!answer.approved) {
      return {
        kind: 'ended',
        call: await journal.update(call, { status: 'denied', output: null, error: DENIED, usage: null }),
      };
    }
    call = await journal.update(call, { status: 'running', output: null, error: null, usage: null });
  }

  // A tool that throws (the database away) leaves the call running: made again on the next turn.
  const result = await tool.call(toolCall.arguments, { seq, idempotencyKey: loop.idempotencyKey(seq) });
  if (result.kind === 'suspend') {
    if (!late()) return { kind: 'suspend', until: result.until };
    await fail(call, 'The called flow did not end in time.');
    return { kind: 'late' };
  }
  if (result.kind === 'error') return fail(call, result.message);
  return {
    kind: 'ended',
    call: await journal.update(call, { status: 'success', output: result.output, error: null, usage: null }),
  };
};
