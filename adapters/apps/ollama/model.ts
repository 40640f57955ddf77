import type { ChatResponse, Message, ChatRequest as OllamaChatRequest, ToolCall as OllamaToolCall } from 'ollama';
import type { ChatAnswer, ChatMessage, ChatRequest, LanguageModel } from '../../../ports/language-model.js';
import { newToolCallId, toolArguments } from '../llm-common/chat-parts.js';
import { type OllamaAccess, withOllama } from './client.js';

export const OLLAMA_DEFAULT_MODEL = 'llama3.2';

const ollamaMessage = (message: ChatMessage): Message => {
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
            tool_calls: message.toolCalls.map((call) => ({
              function: { name: call.name, arguments: { ...call.arguments } },
            })),
          }),
      };
    case 'tool':
      // Ollama matches a result to its call by the tool's name.
      return { role: 'tool', content: message.content, tool_name: message.name };
  }
};

export const ollamaRequest = (request: ChatRequest, model: string): OllamaChatRequest & { stream: false } => {
  const options = {
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.maxTokens !== undefined && { num_predict: request.maxTokens }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.topK !== undefined && { top_k: request.topK }),
    ...(request.frequencyPenalty !== undefined && { frequency_penalty: request.frequencyPenalty }),
    ...(request.presencePenalty !== undefined && { presence_penalty: request.presencePenalty }),
    ...(request.stop && request.stop.length > 0 && { stop: [...request.stop] }),
  };
  return {
    model,
    stream: false,
    messages: request.messages.map(ollamaMessage),
    ...(Object.keys(options).length > 0 && { options }),
    ...(request.tools &&
      request.tools.length > 0 && {
        tools: request.tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } },
        })),
      }),
    ...(request.json && { format: request.json.schema ? { ...request.json.schema } : 'json' }),
  };
};

/** Recent Ollama servers give calls an id; older ones do not, and one is made. */
const toolCallOf = (call: OllamaToolCall & { id?: unknown }) => ({
  id: typeof call.id === 'string' && call.id !== '' ? call.id : newToolCallId(),
  name: call.function.name,
  arguments: toolArguments(call.function.arguments),
});

const finishReason = (reason: string | undefined, calls: number): ChatAnswer['finishReason'] => {
  if (calls > 0) return 'tool_calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  return 'other';
};

export const ollamaAnswer = (response: ChatResponse): ChatAnswer => {
  const toolCalls = (response.message.tool_calls ?? []).map(toolCallOf);
  return {
    text: response.message.content ?? '',
    toolCalls,
    usage: { inputTokens: response.prompt_eval_count ?? 0, outputTokens: response.eval_count ?? 0 },
    model: response.model,
    finishReason: finishReason(response.done_reason, toolCalls.length),
  };
};

/** A model served by an Ollama server, through its /api/chat. */
export const ollamaModel = (access: OllamaAccess): LanguageModel => ({
  defaultModel: OLLAMA_DEFAULT_MODEL,
  chat: (request) =>
    withOllama(access, async (client) =>
      ollamaAnswer(await client.chat(ollamaRequest(request, request.model ?? OLLAMA_DEFAULT_MODEL))),
    ),
});
