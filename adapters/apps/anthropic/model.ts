import type Anthropic from '@anthropic-ai/sdk';
import type { ChatAnswer, ChatMessage, ChatRequest, LanguageModel } from '../../../ports/language-model.js';
import { jsonInstruction, systemInstruction, toolArguments } from '../llm-common/chat-parts.js';
import { type AnthropicAccess, withAnthropic } from './client.js';

export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-6';

/** Anthropic requires a limit on every answer; this one leaves room for long answers. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Turn = { role: 'user' | 'assistant'; content: Anthropic.ContentBlockParam[] };

/**
 * The conversation as Anthropic takes it: the system messages apart, tool calls as `tool_use`
 * blocks of the assistant, their answers as `tool_result` blocks of the next user turn, and
 * consecutive messages of one role merged, since roles must alternate.
 */
const anthropicMessages = (messages: readonly ChatMessage[]): Anthropic.MessageParam[] => {
  const turns: Turn[] = [];
  const add = (role: Turn['role'], blocks: Anthropic.ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  // Anthropic refuses empty text blocks.
  const text = (content: string): Anthropic.TextBlockParam[] =>
    content === '' ? [] : [{ type: 'text', text: content }];
  for (const message of messages) {
    if (message.role === 'user') add('user', text(message.content));
    else if (message.role === 'assistant') {
      add('assistant', [
        ...text(message.content),
        ...(message.toolCalls ?? []).map(
          (call): Anthropic.ToolUseBlockParam => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.arguments,
          }),
        ),
      ]);
    } else if (message.role === 'tool') {
      add('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }]);
    }
  }
  return turns;
};

const finishReason = (reason: Anthropic.StopReason | null): ChatAnswer['finishReason'] => {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  return 'other';
};

export const anthropicRequest = (request: ChatRequest, model: string): Anthropic.MessageCreateParamsNonStreaming => {
  const system = [
    systemInstruction(request.messages),
    // A schema is held to by structured outputs; a JSON answer of any shape only by asking.
    request.json && !request.json.schema ? jsonInstruction(undefined) : undefined,
  ].filter((part): part is string => part !== undefined);
  return {
    model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: anthropicMessages(request.messages),
    ...(system.length > 0 && { system: system.join('\n\n') }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    // Anthropic has no frequency or presence penalties.
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.topK !== undefined && { top_k: request.topK }),
    ...(request.stop && request.stop.length > 0 && { stop_sequences: [...request.stop] }),
    ...(request.tools &&
      request.tools.length > 0 && {
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
        })),
      }),
    ...(request.json?.schema && {
      output_config: { format: { type: 'json_schema', schema: { ...request.json.schema } } },
    }),
  };
};

export const anthropicAnswer = (message: Anthropic.Message): ChatAnswer => ({
  text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
  toolCalls: message.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: toolArguments(block.input) }] : [],
  ),
  usage: {
    // Tokens read from or written to the prompt cache are input too.
    inputTokens:
      message.usage.input_tokens +
      (message.usage.cache_creation_input_tokens ?? 0) +
      (message.usage.cache_read_input_tokens ?? 0),
    outputTokens: message.usage.output_tokens,
  },
  model: message.model,
  finishReason: finishReason(message.stop_reason),
});

/** Claude through Anthropic's Messages API. */
export const anthropicModel = (access: AnthropicAccess): LanguageModel => ({
  defaultModel: ANTHROPIC_DEFAULT_MODEL,
  chat: (request) =>
    withAnthropic(access, async (client) =>
      anthropicAnswer(
        await client.messages.create(anthropicRequest(request, request.model ?? ANTHROPIC_DEFAULT_MODEL)),
      ),
    ),
});
