/**
 * A fake OpenAI-compatible API (chat completions, models, moderations) for tests of model apps,
 * agents and AI steps: answers are scripted, every request is recorded, and requests are checked
 * as the real API checks them (400 with OpenAI's error body for a malformed conversation or tool,
 * 401 for a wrong key, 404 for an unknown model).
 *
 *   const openai = await startFakeOpenAi();
 *   openai.script(answer.toolCalls([{ name: 'lookup', arguments: { id: 7 } }]), answer.text('Done.'));
 *   await runAppAction(openaiApp, 'sendPrompt', { baseUrl: `${openai.url}/v1`, auth: openai.auth, ... });
 *   openai.chatRequests[0].body.messages;
 *
 * It serves the same routes under `/v1` (OpenAI, Groq's `/openai/v1`...), `/api/v1` (OpenRouter),
 * `/openai/deployments/:deployment` (Azure) and at the root (Perplexity, DeepSeek), so that any
 * vendor's base URL can point at it.
 */
import { type FakeReply, type FakeRequest, type FakeVendor, reply, startFakeVendor } from './fake-vendor.js';

export interface FakeToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments: unknown;
}

export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
}

/** One scripted answer of `POST /chat/completions`. */
export type FakeAnswer =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly finishReason?: string;
      readonly model?: string;
      readonly usage?: FakeUsage;
    }
  | {
      readonly kind: 'toolCalls';
      readonly calls: readonly FakeToolCall[];
      readonly text?: string;
      readonly usage?: FakeUsage;
    }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message: string;
      readonly code?: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

/**
 * A scripted answer, or one computed from the request (its parsed body); a promise holds the answer
 * back until it settles (a test that stops the client while a model is still thinking).
 */
export type FakeScriptEntry = FakeAnswer | ((request: FakeChatRequest) => FakeAnswer | Promise<FakeAnswer>);

export interface FakeChatRequest extends FakeRequest {
  readonly body: {
    readonly model: string;
    readonly messages: readonly Record<string, unknown>[];
    readonly tools?: readonly { type: string; function: { name: string; description?: string; parameters?: object } }[];
    readonly response_format?: { type: string; json_schema?: { name: string; schema: object } };
    readonly [key: string]: unknown;
  };
}

export const answer = {
  text: (text: string, options: { finishReason?: string; model?: string; usage?: FakeUsage } = {}): FakeAnswer => ({
    kind: 'text',
    text,
    ...options,
  }),
  /** A JSON answer, as a model in JSON mode gives it: the value's JSON text. */
  json: (value: unknown, options: { usage?: FakeUsage } = {}): FakeAnswer => ({
    kind: 'text',
    text: JSON.stringify(value),
    ...options,
  }),
  /** Calls of tools; `arguments` is sent as JSON text (a string is sent as it is, to fake a malformed call). */
  toolCalls: (calls: readonly FakeToolCall[], options: { text?: string; usage?: FakeUsage } = {}): FakeAnswer => ({
    kind: 'toolCalls',
    calls,
    ...options,
  }),
  error: (status: number, message: string, code?: string): FakeAnswer => ({
    kind: 'error',
    status,
    message,
    ...(code && { code }),
  }),
  /** OpenAI's 429, with `Retry-After` in seconds. */
  rateLimited: (retryAfterSeconds: number): FakeAnswer => ({
    kind: 'error',
    status: 429,
    message: 'Rate limit reached for requests. Please try again later.',
    code: 'rate_limit_exceeded',
    headers: { 'retry-after': String(retryAfterSeconds) },
  }),
};

export interface FakeOpenAiOptions {
  /** The key the fake accepts (as `Authorization: Bearer` or Azure's `api-key`); null accepts any request. */
  readonly apiKey?: string | null;
  /** The models it lists and accepts; another model answers 404. */
  readonly models?: readonly string[];
  /** Together lists its models as a bare array, not `{ data }`. */
  readonly modelList?: 'data' | 'array';
  /** What answers when the script is empty (by default a 500 that says so). */
  readonly fallback?: (request: FakeChatRequest) => FakeAnswer | Promise<FakeAnswer>;
}

export interface FakeOpenAi {
  readonly url: string;
  /** The credentials of a connection the fake accepts: `{ screenName, apiKey }`. */
  readonly auth: { readonly screenName: string; readonly apiKey: string };
  /** Every request, in order (models, moderations and refused ones included). */
  readonly requests: readonly FakeRequest[];
  /** The chat completion requests that passed the checks, in order. */
  readonly chatRequests: readonly FakeChatRequest[];
  /** Queues answers for the next chat completions, in order. */
  script(...entries: FakeScriptEntry[]): void;
  /** The answers still queued. */
  readonly pending: number;
  close(): Promise<void>;
}

export const FAKE_API_KEY = 'sk-fake-0123456789abcdef';
export const FAKE_MODELS = ['gpt-4o-mini', 'gpt-4o', 'o3-mini'] as const;

const PREFIXES = ['', '/v1', '/api/v1', '/openai', '/openai/v1', '/openai/deployments/:deployment'];

const apiError = (
  status: number,
  message: string,
  extra: { code?: string; param?: string; type?: string } = {},
  headers = {},
) =>
  reply(
    status,
    {
      error: {
        message,
        type: extra.type ?? (status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error'),
        param: extra.param ?? null,
        code: extra.code ?? null,
      },
    },
    headers,
  );

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What the real API refuses with a 400 (a subset, the parts clients get wrong): the message and the parameter. */
const problemOf = (body: unknown): { message: string; param: string } | null => {
  if (!isObject(body)) return { message: 'The body must be a JSON object.', param: '' };
  if (typeof body.model !== 'string' || body.model === '')
    return { message: 'you must provide a model parameter', param: 'model' };
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0)
    return { message: "'messages' must be a non-empty array.", param: 'messages' };
  const open = new Set<string>();
  for (const [i, message] of messages.entries()) {
    const param = `messages.[${i}]`;
    if (!isObject(message)) return { message: `Invalid type for '${param}': expected an object.`, param };
    const role = message.role;
    if (open.size > 0 && role !== 'tool')
      return {
        message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        param: 'messages',
      };
    switch (role) {
      case 'system':
      case 'developer':
      case 'user':
        if (typeof message.content !== 'string' && !Array.isArray(message.content))
          return { message: `Invalid type for '${param}.content': expected a string.`, param: `${param}.content` };
        break;
      case 'assistant': {
        const calls = message.tool_calls;
        if (calls !== undefined) {
          if (!Array.isArray(calls) || calls.length === 0)
            return { message: `Invalid '${param}.tool_calls': empty array.`, param: `${param}.tool_calls` };
          for (const call of calls) {
            if (
              !isObject(call) ||
              typeof call.id !== 'string' ||
              call.type !== 'function' ||
              !isObject(call.function) ||
              typeof call.function.name !== 'string' ||
              typeof call.function.arguments !== 'string'
            )
              return {
                message: `Invalid '${param}.tool_calls': each needs id, type "function" and function {name, arguments (a string)}.`,
                param: `${param}.tool_calls`,
              };
            open.add(call.id);
          }
        }
        if (
          typeof message.content !== 'string' &&
          !(message.content === null && calls !== undefined) &&
          message.content !== undefined
        )
          return { message: `Invalid type for '${param}.content': expected a string.`, param: `${param}.content` };
        if ((message.content === null || message.content === undefined) && calls === undefined)
          return { message: `Invalid value for '${param}': an assistant message needs content or tool_calls.`, param };
        break;
      }
      case 'tool':
        if (typeof message.tool_call_id !== 'string' || !open.has(message.tool_call_id))
          return {
            message:
              "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
            param: `${param}.role`,
          };
        if (typeof message.content !== 'string')
          return { message: `Invalid type for '${param}.content': expected a string.`, param: `${param}.content` };
        open.delete(message.tool_call_id);
        break;
      default:
        return {
          message: `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`,
          param: `${param}.role`,
        };
    }
  }
  if (open.size > 0)
    return {
      message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
      param: 'messages',
    };
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return { message: "Invalid type for 'tools': expected an array.", param: 'tools' };
    const names = new Set<string>();
    for (const [i, tool] of body.tools.entries()) {
      const fn = isObject(tool) ? tool.function : undefined;
      if (
        !isObject(tool) ||
        tool.type !== 'function' ||
        !isObject(fn) ||
        typeof fn.name !== 'string' ||
        !TOOL_NAME.test(fn.name)
      )
        return {
          message: `Invalid 'tools[${i}].function.name': string does not match pattern '^[a-zA-Z0-9_-]+$' (1 to 64 characters).`,
          param: `tools[${i}].function.name`,
        };
      if (fn.parameters !== undefined && (!isObject(fn.parameters) || fn.parameters.type !== 'object'))
        return {
          message: `Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"'.`,
          param: `tools[${i}].function.parameters`,
        };
      if (names.has(fn.name)) return { message: `Duplicate tool name: ${fn.name}.`, param: 'tools' };
      names.add(fn.name);
    }
  }
  const format = body.response_format;
  if (format !== undefined) {
    if (!isObject(format)) return { message: "Invalid type for 'response_format'.", param: 'response_format' };
    if (format.type === 'json_object' && !/json/i.test(JSON.stringify(messages)))
      return {
        message:
          "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
        param: 'messages',
      };
    if (format.type === 'json_schema') {
      const spec = format.json_schema;
      if (!isObject(spec) || typeof spec.name !== 'string' || !TOOL_NAME.test(spec.name) || !isObject(spec.schema))
        return {
          message: "Invalid 'response_format.json_schema': needs a name and a schema.",
          param: 'response_format.json_schema',
        };
    } else if (format.type !== 'json_object' && format.type !== 'text')
      return {
        message: `Invalid value for 'response_format.type': ${String(format.type)}.`,
        param: 'response_format.type',
      };
  }
  const inRange = (key: string, min: number, max: number) =>
    body[key] === undefined ||
    (typeof body[key] === 'number' && (body[key] as number) >= min && (body[key] as number) <= max);
  if (!inRange('temperature', 0, 2)) return { message: 'temperature must be between 0 and 2.', param: 'temperature' };
  if (!inRange('top_p', 0, 1)) return { message: 'top_p must be between 0 and 1.', param: 'top_p' };
  if (body.max_tokens !== undefined && !(Number.isInteger(body.max_tokens) && (body.max_tokens as number) >= 1))
    return { message: 'max_tokens must be a positive integer.', param: 'max_tokens' };
  return null;
};

/** A rough count, so that usage is never zero unless scripted. */
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

let completions = 0;

const completion = (request: FakeChatRequest, scripted: FakeAnswer): FakeReply | Record<string, unknown> => {
  if (scripted.kind === 'error')
    return apiError(
      scripted.status,
      scripted.message,
      scripted.code ? { code: scripted.code } : {},
      scripted.headers ?? {},
    );
  completions += 1;
  const text = scripted.kind === 'text' ? scripted.text : (scripted.text ?? null);
  const toolCalls =
    scripted.kind === 'toolCalls'
      ? scripted.calls.map((call, i) => ({
          id: call.id ?? `call_${completions}_${i}`,
          type: 'function',
          function: {
            name: call.name,
            arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          },
        }))
      : undefined;
  const usage = scripted.usage ?? {
    prompt_tokens: tokens(JSON.stringify(request.body.messages)),
    completion_tokens: tokens(text ?? JSON.stringify(toolCalls)),
  };
  return {
    id: `chatcmpl-fake${completions}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: (scripted.kind === 'text' && scripted.model) || request.body.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null, ...(toolCalls && { tool_calls: toolCalls }) },
        finish_reason: scripted.kind === 'toolCalls' ? 'tool_calls' : (scripted.finishReason ?? 'stop'),
        logprobs: null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
};

const keyOf = (request: FakeRequest) =>
  request.headers['api-key'] ?? (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');

export const startFakeOpenAi = async (options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> => {
  const apiKey = options.apiKey === undefined ? FAKE_API_KEY : options.apiKey;
  const models = options.models ?? FAKE_MODELS;
  const queue: FakeScriptEntry[] = [];
  const chatRequests: FakeChatRequest[] = [];

  const chat = async (request: FakeRequest) => {
    const problem = problemOf(request.body);
    if (problem) return apiError(400, problem.message, { param: problem.param });
    const chatRequest = request as FakeChatRequest;
    // Azure names the model by its deployment; the body's model is then the deployment's.
    if (!request.params.deployment && !models.includes(chatRequest.body.model))
      return apiError(404, `The model \`${chatRequest.body.model}\` does not exist or you do not have access to it.`, {
        code: 'model_not_found',
      });
    chatRequests.push(chatRequest);
    const next = queue.shift();
    const scripted = await (next
      ? typeof next === 'function'
        ? next(chatRequest)
        : next
      : (options.fallback?.(chatRequest) ?? answer.error(500, 'fake-openai: no answer is scripted for this request.')));
    return completion(chatRequest, scripted);
  };

  const listModels = () => {
    const data = models.map((id) => ({
      id,
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'fake',
      display_name: id.toUpperCase(),
    }));
    return options.modelList === 'array' ? data : { object: 'list', data };
  };

  const moderate = (request: FakeRequest) => {
    const input = isObject(request.body) ? request.body.input : undefined;
    if (typeof input !== 'string' && !Array.isArray(input))
      return apiError(400, "'input' is required.", { param: 'input' });
    const inputs = Array.isArray(input) ? input : [input];
    return {
      id: 'modr-fake',
      model: 'omni-moderation-latest',
      results: inputs.map((text) => {
        const violent = /\b(kill|attack)\b/i.test(String(text));
        return {
          flagged: violent,
          categories: { violence: violent, hate: false, harassment: false, 'self-harm': false, sexual: false },
          category_scores: { violence: violent ? 0.98 : 0.01, hate: 0.01, harassment: 0.01, 'self-harm': 0, sexual: 0 },
        };
      }),
    };
  };

  const routes = Object.fromEntries(
    PREFIXES.flatMap((prefix) => [
      [`POST ${prefix}/chat/completions`, chat],
      [`GET ${prefix}/models`, listModels],
      [`POST ${prefix}/moderations`, moderate],
      // OpenRouter's key check.
      [`GET ${prefix}/key`, () => ({ data: { label: 'fake key', usage: 0, limit: null } })],
    ]),
  );

  const vendor: FakeVendor = await startFakeVendor({
    routes,
    ...(apiKey !== null && { authorize: (request: FakeRequest) => keyOf(request) === apiKey }),
    // OpenAI's words, which never repeat the key sent.
    unauthorized: apiError(401, 'Incorrect API key provided. You can find your API key in your account settings.', {
      code: 'invalid_api_key',
    }),
  });

  return {
    url: vendor.url,
    auth: { screenName: 'Fake OpenAI', apiKey: apiKey ?? '' },
    requests: vendor.requests,
    chatRequests,
    script: (...entries) => {
      queue.push(...entries);
    },
    get pending() {
      return queue.length;
    },
    close: () => vendor.close(),
  };
};
