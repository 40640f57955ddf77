import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { Credentials } from '../../../core/domain/app.js';
import type {
  AppContext,
  ChatAnswer,
  ChatMessage,
  ChatRequest,
  DynamicOption,
  LanguageModelFactory,
  ToolCall,
  Verified,
} from '../sdk/index.js';
import { TemporaryError } from '../sdk/index.js';
import { MODEL_TIMEOUT_MS, vendorCall } from './vendor-call.js';

/** What a model's SDK client needs of a hook's context: the guarded fetch, the base URL, the connection. */
export type ModelContext = Pick<AppContext, 'fetch' | 'apiBaseUrl' | 'signal'> & {
  readonly auth: { readonly data: Credentials };
};

/** Where and how one connection reaches an OpenAI-compatible API. */
export interface OpenAiEndpoint {
  /** The SDK's `baseURL`: the address `/chat/completions` and `/models` are under (`https://api.openai.com/v1`). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer` (Azure: `api-key`); an empty key sends none (a local server). */
  readonly apiKey: string;
  /** Azure OpenAI: the deployment every chat goes to and the API version, through the SDK's AzureOpenAI. */
  readonly azure?: { readonly deployment: string; readonly apiVersion: string };
}

export interface OpenAiCompatibleOptions {
  /** The endpoint of a connection; `ctx.apiBaseUrl` is the app's base URL with `APP_BASE_URL_<KEY>` applied. */
  readonly endpoint: (ctx: ModelContext) => OpenAiEndpoint;
  /** The model asked when a step or an agent names none ('' when the connection names none). */
  readonly defaultModel: string | ((ctx: ModelContext) => string);
  /**
   * How the vendor is asked for JSON: `json_schema` (structured outputs: OpenAI, Azure, Groq,
   * Together, OpenRouter, Perplexity) or `json_object` (JSON mode only: DeepSeek, most local servers).
   */
  readonly jsonMode?: 'json_schema' | 'json_object';
  /** Where the vendor lists its models, under `baseUrl` (`/models` by default). */
  readonly modelsPath?: string;
  /**
   * Where a connection is checked, under `baseUrl` (the models list by default; OpenRouter lists its
   * models to anyone, so its key is checked at `/key`).
   */
  readonly verifyPath?: string;
  /** A model's name in the dropdown (the id by default; Together's `display_name`). */
  readonly modelName?: (model: Readonly<Record<string, unknown>>) => string;
}

/** An OpenAI-compatible vendor as apps use it: its SDK client, model, model list and connection check. */
export interface OpenAiCompatible {
  /** Runs `call` with the SDK client of the connection; its failures become the kit's errors. */
  call<T>(ctx: ModelContext, call: (client: OpenAI) => Promise<T>): Promise<T>;
  /** The app's `languageModel`: chat completions with tools and JSON answers. */
  readonly languageModel: LanguageModelFactory;
  /** The vendor's models, for a model dropdown (`listModels`). */
  listModels(ctx: ModelContext): Promise<DynamicOption[]>;
  /** Checks a connection by listing its models; the screen name is the connection's `screenName`. */
  verify(ctx: ModelContext): Promise<Verified>;
}

const clientOf = async (endpoint: OpenAiEndpoint, fetch: typeof globalThis.fetch): Promise<OpenAI> => {
  // Loaded on first use: most instances never call a model.
  const { AzureOpenAI, default: OpenAI } = await import('openai');
  // Every option explicit: the SDK otherwise reads OPENAI_* variables from the environment.
  const common = {
    apiKey: endpoint.apiKey === '' ? 'none' : endpoint.apiKey,
    fetch,
    // The engine retries a failed step with backoff, honouring Retry-After.
    maxRetries: 0,
    timeout: MODEL_TIMEOUT_MS,
    organization: null,
    project: null,
  };
  if (endpoint.azure) {
    return new AzureOpenAI({
      ...common,
      baseURL: endpoint.baseUrl,
      deployment: endpoint.azure.deployment,
      apiVersion: endpoint.azure.apiVersion,
    });
  }
  return new OpenAI({
    ...common,
    baseURL: endpoint.baseUrl,
    ...(endpoint.apiKey === '' && { defaultHeaders: { authorization: null } }),
  });
};

const messageParam = (message: ChatMessage): ChatCompletionMessageParam => {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content === '' && message.toolCalls?.length ? null : message.content,
        ...(message.toolCalls?.length && {
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        }),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
};

const toolParam = (tool: NonNullable<ChatRequest['tools']>[number]): ChatCompletionTool => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } },
});

const responseFormat = (json: NonNullable<ChatRequest['json']>, mode: 'json_schema' | 'json_object') =>
  json.schema && mode === 'json_schema'
    ? // Not strict: strict mode refuses schemas with optional properties, which users may write.
      { type: 'json_schema' as const, json_schema: { name: 'answer', schema: { ...json.schema }, strict: false } }
    : { type: 'json_object' as const };

/** The request's body: only what was given, so that vendors' own defaults apply. */
export const chatCompletionParams = (
  request: ChatRequest,
  model: string,
  jsonMode: 'json_schema' | 'json_object' = 'json_schema',
): ChatCompletionCreateParamsNonStreaming => ({
  model,
  messages: request.messages.map(messageParam),
  ...(request.tools?.length && { tools: request.tools.map(toolParam) }),
  ...(request.temperature !== undefined && { temperature: request.temperature }),
  ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
  ...(request.topP !== undefined && { top_p: request.topP }),
  // Not OpenAI's, but Together's, OpenRouter's and Perplexity's (the SDK passes it on).
  ...(request.topK !== undefined && ({ top_k: request.topK } as object)),
  ...(request.frequencyPenalty !== undefined && { frequency_penalty: request.frequencyPenalty }),
  ...(request.presencePenalty !== undefined && { presence_penalty: request.presencePenalty }),
  ...(request.stop?.length && { stop: [...request.stop] }),
  ...(request.json && { response_format: responseFormat(request.json, jsonMode) }),
});

const parseArguments = (name: string, text: string): Readonly<Record<string, unknown>> => {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    // A model's slip, which another attempt usually does not repeat.
    throw new TemporaryError(`The model called the tool ${name} with arguments that are not a JSON object.`);
  }
  return parsed as Record<string, unknown>;
};

const FINISH_REASONS: Readonly<Record<string, ChatAnswer['finishReason']>> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
};

/** The vendor's completion as the port's answer. */
export const chatAnswerOf = (completion: ChatCompletion, model: string): ChatAnswer => {
  const choice = completion.choices?.[0];
  if (!choice) throw new TemporaryError('The model answered without a choice.');
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [
          {
            id: call.id,
            name: call.function.name,
            arguments: parseArguments(call.function.name, call.function.arguments),
          },
        ]
      : [],
  );
  return {
    text: choice.message.content ?? '',
    toolCalls,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
    model: completion.model || model,
    finishReason: FINISH_REASONS[choice.finish_reason] ?? 'other',
  };
};

const modelsOf = (answer: unknown): Readonly<Record<string, unknown>>[] => {
  // OpenAI answers `{ data: [...] }`; Together a bare list.
  const list = Array.isArray(answer) ? answer : (answer as { data?: unknown } | null)?.data;
  return Array.isArray(list)
    ? list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof m.id === 'string')
    : [];
};

/** An OpenAI-compatible vendor over the official `openai` SDK, through the instance's guarded fetch. */
export const openAiCompatible = (options: OpenAiCompatibleOptions): OpenAiCompatible => {
  const jsonMode = options.jsonMode ?? 'json_schema';

  const call = <T>(ctx: ModelContext, run: (client: OpenAI) => Promise<T>): Promise<T> =>
    vendorCall(ctx, async (fetch) => run(await clientOf(options.endpoint(ctx), fetch)));

  const listModels = async (ctx: ModelContext): Promise<DynamicOption[]> => {
    const answer = await call(ctx, (client) => client.get<unknown>(options.modelsPath ?? '/models'));
    const name = options.modelName ?? ((model) => String(model.id));
    return modelsOf(answer)
      .map((model) => ({ value: String(model.id), name: name(model) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  };

  const defaultModel = (ctx: ModelContext) =>
    typeof options.defaultModel === 'string' ? options.defaultModel : options.defaultModel(ctx);

  return {
    call,
    listModels,
    languageModel: (ctx) => ({
      defaultModel: defaultModel(ctx),
      async chat(request) {
        const model = request.model ?? defaultModel(ctx);
        if (model === '') throw new Error('Choose a model: the connection names no default model.');
        const completion = await call(ctx, (client) =>
          client.chat.completions.create(chatCompletionParams(request, model, jsonMode), { signal: ctx.signal }),
        );
        return chatAnswerOf(completion, model);
      },
    }),
    async verify(ctx) {
      await call(ctx, (client) => client.get<unknown>(options.verifyPath ?? options.modelsPath ?? '/models'));
      const screenName = ctx.auth.data.screenName;
      return { screenName: typeof screenName === 'string' && screenName.trim() !== '' ? screenName.trim() : null };
    },
  };
};
