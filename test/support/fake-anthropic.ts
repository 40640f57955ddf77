/**
 * A local fake of Anthropic's Messages API, for the anthropic app's tests and for tests of what
 * asks a model (the agent step, the AI actions, end-to-end runs). It checks requests as the real
 * API does (the key as `x-api-key` or a bearer token, an `anthropic-version` header; `model` and `max_tokens` required;
 * roles that alternate, starting with the user; `tool_result` blocks first in the user turn right
 * after the `tool_use` blocks they answer, every call answered; tool names and schemas) and answers
 * 400 `invalid_request_error` as Anthropic does when they do not hold; it answers what the test
 * scripted (text, `tool_use` blocks, errors, 429 with `retry-after`) and records every request.
 *
 *   const anthropic = await startFakeAnthropic();
 *   anthropic.script([{ toolCalls: [{ name: 'lookup', input: { q: 'x' } }] }, { text: 'Done.' }]);
 *   // APP_BASE_URL_ANTHROPIC=anthropic.url, or the harness's { baseUrl: anthropic.url }
 *   anthropic.bodies(); // what POST /v1/messages received, in order
 */
import {
  createModelScript,
  type FakeModelVendor,
  fakeModelVendor,
  isScriptedError,
  roughTokens,
  type ScriptedError,
  type ScriptedReply,
} from './fake-model-script.js';
import { type FakeRequest, reply, startFakeVendor } from './fake-vendor.js';

export const FAKE_ANTHROPIC_KEY = 'sk-ant-fake-key-0001';

export interface FakeAnthropicModel {
  readonly id: string;
  readonly display_name: string;
}

export const FAKE_ANTHROPIC_MODELS: readonly FakeAnthropicModel[] = [
  { id: 'claude-sonnet-4-6', display_name: 'Claude Sonnet 4.6' },
  { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5' },
  { id: 'claude-opus-4-7', display_name: 'Claude Opus 4.7' },
];

export interface FakeAnthropicOptions {
  /** The only key accepted; FAKE_ANTHROPIC_KEY by default. */
  readonly apiKey?: string;
  readonly models?: readonly FakeAnthropicModel[];
}

export interface FakeAnthropic extends FakeModelVendor {
  readonly apiKey: string;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

let requestNumber = 0;

/** Anthropic's error body, with the request id it gives every answer. */
const anthropicError = (status: number, message: string, headers: Record<string, string> = {}) =>
  reply(
    status,
    {
      type: 'error',
      error: { type: ERROR_TYPES[status] ?? 'api_error', message },
      request_id: `req_fake_${++requestNumber}`,
    },
    headers,
  );

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Block = Record<string, any>;

const blocksOf = (content: unknown): Block[] | null => {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) && content.every(isObject) ? (content as Block[]) : null;
};

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

const checkTools = (tools: unknown): string | null => {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
  const names = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (!isObject(tool) || typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
      return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (names.has(tool.name)) return `tools: Tool names must be unique.`;
    names.add(tool.name);
    if (!isObject(tool.input_schema) || tool.input_schema.type !== 'object')
      return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
  }
  return null;
};

/** The tool_result rules: first in their turn, each naming a tool_use of the turn before; every call answered. */
const checkToolTurns = (messages: Block[], contents: Block[][]): string | null => {
  for (const [i, blocks] of contents.entries()) {
    const role = messages[i]?.role;
    const previousUses =
      i > 0 ? new Set((contents[i - 1] ?? []).filter((b) => b.type === 'tool_use').map((b) => b.id)) : new Set();
    if (role === 'user') {
      const results = blocks.filter((b) => b.type === 'tool_result');
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
      if (firstOther !== -1 && blocks.slice(firstOther).some((b) => b.type === 'tool_result'))
        return `messages.${i}: \`tool_result\` blocks must come first in the content array, before any other content.`;
      const stray = results.map((b) => b.tool_use_id).filter((id) => !previousUses.has(id));
      if (stray.length > 0) {
        return `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
    if (role === 'assistant') {
      const uses = blocks.filter((b) => b.type === 'tool_use');
      for (const use of uses) {
        if (typeof use.id !== 'string' || typeof use.name !== 'string' || !isObject(use.input))
          return `messages.${i}.content: tool_use blocks need an id, a name and an input object`;
      }
      const answered = new Set(
        (contents[i + 1] ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id),
      );
      const unanswered = uses.map((b) => b.id).filter((id) => !answered.has(id));
      if (unanswered.length > 0) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
  }
  return null;
};

const checkMessages = (messages: unknown): string | null => {
  if (!Array.isArray(messages)) return 'messages: Field required';
  if (messages.length === 0) return 'messages: at least one message is required';
  const contents: Block[][] = [];
  for (const [i, message] of messages.entries()) {
    if (!isObject(message)) return `messages.${i}: Input should be a valid dictionary`;
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const blocks = blocksOf(message.content);
    if (!blocks) return `messages.${i}.content: Input should be a valid list`;
    const isFinalAssistant = i === messages.length - 1 && message.role === 'assistant';
    if (blocks.length === 0 && !isFinalAssistant)
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    if (blocks.some((b) => b.type === 'text' && (typeof b.text !== 'string' || b.text === '')))
      return 'messages: text content blocks must be non-empty';
    if (i === 0 && message.role !== 'user') return 'messages: first message must use the "user" role';
    if (i > 0 && messages[i - 1].role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`;
    }
    contents.push(blocks);
  }
  return checkToolTurns(messages, contents);
};

/** What Anthropic's API would refuse in a Messages request, in its words; null when it is fine. */
export const anthropicRequestProblem = (body: unknown): string | null => {
  if (!isObject(body)) return 'There was an issue with your request body: it must be a JSON object.';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (!Number.isInteger(body.max_tokens)) return 'max_tokens: Field required';
  if (body.max_tokens < 1) return 'max_tokens: Input should be greater than or equal to 1';
  if (
    body.temperature !== undefined &&
    !(typeof body.temperature === 'number' && body.temperature >= 0 && body.temperature <= 1)
  )
    return 'temperature: Input should be less than or equal to 1';
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
    return 'system: Input should be a valid string';
  return checkTools(body.tools) ?? checkMessages(body.messages);
};

let toolUseNumber = 0;
let messageNumber = 0;

const answerOf = (scripted: ScriptedReply, body: Record<string, any>) => {
  const toolCalls = scripted.toolCalls ?? [];
  const content = [
    ...(scripted.text !== undefined && scripted.text !== '' ? [{ type: 'text', text: scripted.text }] : []),
    ...toolCalls.map((call) => ({
      type: 'tool_use',
      id: call.id ?? `toolu_fake_${String(++toolUseNumber).padStart(6, '0')}`,
      name: call.name,
      input: call.input,
      caller: { type: 'direct' },
    })),
  ];
  const stop = scripted.finish === 'length' ? 'max_tokens' : toolCalls.length > 0 ? 'tool_use' : 'end_turn';
  return {
    id: `msg_fake_${String(++messageNumber).padStart(6, '0')}`,
    type: 'message',
    role: 'assistant',
    model: scripted.model ?? body.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: {
      input_tokens: scripted.usage?.input ?? roughTokens([body.system, body.messages]),
      output_tokens: scripted.usage?.output ?? roughTokens(content),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
};

const errorOf = (scripted: ScriptedError) =>
  anthropicError(
    scripted.error,
    scripted.message ??
      (scripted.error === 429
        ? 'Number of request tokens has exceeded your per-minute rate limit.'
        : scripted.error === 529
          ? 'Overloaded'
          : 'Internal server error'),
    scripted.retryAfter !== undefined ? { 'retry-after': String(scripted.retryAfter) } : {},
  );

/** The scripted tools must be among the request's, or the test scripted a call the model could not make. */
const unknownTool = (scripted: ScriptedReply, body: Record<string, any>): string | null => {
  const offered = new Set(((body.tools as Block[] | undefined) ?? []).map((t) => t.name));
  return (scripted.toolCalls ?? []).map((c) => c.name).find((name) => !offered.has(name)) ?? null;
};

const needsVersion = (request: FakeRequest) =>
  request.headers['anthropic-version'] ? null : anthropicError(400, 'anthropic-version: header is required');

const modelsPage = (models: readonly FakeAnthropicModel[], query: Record<string, string>) => {
  const limit = Math.min(Math.max(Number(query.limit ?? 20) || 20, 1), 1000);
  const after = query.after_id ? models.findIndex((m) => m.id === query.after_id) + 1 : 0;
  const page = models.slice(after, after + limit).map((m) => ({
    type: 'model',
    id: m.id,
    display_name: m.display_name,
    created_at: '2025-09-29T00:00:00Z',
  }));
  return {
    data: page,
    has_more: after + limit < models.length,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
  };
};

export const startFakeAnthropic = async (options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> => {
  const apiKey = options.apiKey ?? FAKE_ANTHROPIC_KEY;
  const models = options.models ?? FAKE_ANTHROPIC_MODELS;
  const answers = createModelScript();
  const vendor = await startFakeVendor({
    // The API takes the key as `x-api-key` or, as the SDK sends it since 1.x, `Authorization: Bearer`.
    authorize: (request) =>
      request.headers['x-api-key'] === apiKey || request.headers.authorization === `Bearer ${apiKey}`,
    unauthorized: anthropicError(401, 'invalid x-api-key'),
    routes: {
      'POST /v1/messages': (request) => {
        const body = request.body as Record<string, any>;
        const refused = needsVersion(request) ?? anthropicRequestProblem(body);
        if (refused) return typeof refused === 'string' ? anthropicError(400, refused) : refused;
        const scripted = answers.next(body);
        if (!scripted) return anthropicError(500, 'fake-anthropic: no scripted answer left for this request');
        if (isScriptedError(scripted)) return errorOf(scripted);
        const unknown = unknownTool(scripted, body);
        if (unknown)
          return anthropicError(500, `fake-anthropic: the script calls ${unknown}, not among the request's tools`);
        return answerOf(scripted, body);
      },
      'GET /v1/models': (request) => needsVersion(request) ?? modelsPage(models, request.query),
      'GET /v1/models/:id': (request) => {
        const model = models.find((m) => m.id === request.params.id);
        if (!model) return anthropicError(404, `model: ${request.params.id}`);
        return needsVersion(request) ?? { type: 'model', ...model, created_at: '2025-09-29T00:00:00Z' };
      },
    },
  });
  return { ...fakeModelVendor(vendor, answers, (r) => r.method === 'POST' && r.path === '/v1/messages'), apiKey };
};
