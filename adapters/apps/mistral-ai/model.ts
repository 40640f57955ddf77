import type { ChatCompletionRequest, ChatCompletionResponse } from '@mistralai/mistralai/models/components';
import type { ChatAnswer, ChatMessage, ChatRequest, LanguageModel } from '../../../ports/language-model.js';
import { toolArguments } from '../llm-common/chat-parts.js';
import { type MistralAccess, withMistral } from './client.js';

export const MISTRAL_DEFAULT_MODEL = 'mistral-large-latest';

const mistralMessage = (message: ChatMessage): ChatCompletionRequest['messages'][number] => {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls &&
          message.toolCalls.length > 0 && {
            toolCalls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          }),
      };
    case 'tool':
      return { role: 'tool', toolCallId: message.toolCallId, name: message.name, content: message.content };
  }
};

export const mistralRequest = (request: ChatRequest, model: string): ChatCompletionRequest => ({
  model,
  messages: request.messages.map(mistralMessage),
  ...(request.temperature !== undefined && { temperature: request.temperature }),
  ...(request.maxTokens !== undefined && { maxTokens: request.maxTokens }),
  // Mistral has no top-k.
  ...(request.topP !== undefined && { topP: request.topP }),
  ...(request.frequencyPenalty !== undefined && { frequencyPenalty: request.frequencyPenalty }),
  ...(request.presencePenalty !== undefined && { presencePenalty: request.presencePenalty }),
  ...(request.stop && request.stop.length > 0 && { stop: [...request.stop] }),
  ...(request.tools &&
    request.tools.length > 0 && {
      tools: request.tools.map((tool) => ({
        type: 'function' as const,
        function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } },
      })),
    }),
  ...(request.json && {
    responseFormat: request.json.schema
      ? {
          type: 'json_schema',
          jsonSchema: { name: 'answer', schemaDefinition: { ...request.json.schema }, strict: true },
        }
      : { type: 'json_object' },
  }),
});

/** Mistral's content is text, or chunks of which the text ones are the answer. */
const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((chunk) => (chunk?.type === 'text' && typeof chunk.text === 'string' ? [chunk.text] : []))
    .join('');
};

const finishReason = (reason: string | undefined): ChatAnswer['finishReason'] => {
  if (reason === 'stop') return 'stop';
  if (reason === 'tool_calls') return 'tool_calls';
  if (reason === 'length' || reason === 'model_length') return 'length';
  return 'other';
};

export const mistralAnswer = (response: ChatCompletionResponse): ChatAnswer => {
  const choice = response.choices[0];
  const message = choice?.message;
  return {
    text: textOf(message?.content),
    toolCalls: (message?.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${i}`,
      name: call.function.name,
      arguments: toolArguments(call.function.arguments),
    })),
    usage: { inputTokens: response.usage.promptTokens ?? 0, outputTokens: response.usage.completionTokens ?? 0 },
    model: response.model,
    finishReason: finishReason(choice?.finishReason),
  };
};

/** Mistral's models through its chat completions API. */
export const mistralModel = (access: MistralAccess): LanguageModel => ({
  defaultModel: MISTRAL_DEFAULT_MODEL,
  chat: (request) =>
    withMistral(access, async (client) =>
      mistralAnswer(await client.chat.complete(mistralRequest(request, request.model ?? MISTRAL_DEFAULT_MODEL))),
    ),
});
