/** Small pieces every model app's LanguageModel needs, whatever its vendor. */
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../../../ports/language-model.js';
import type { ChatActionSpec } from './chat-actions.js';

/** The arguments of a tool call: vendors give a JSON text (OpenAI's style) or an object. */
export const toolArguments = (raw: unknown): Readonly<Record<string, unknown>> => {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      // A model that wrote broken JSON called the tool with nothing usable: the tool says what is missing.
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
};

/** An id for a tool call the vendor gave none (Ollama, often Gemini), which its answer can refer to. */
export const newToolCallId = () => `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

/** The system messages as one instruction, for vendors that take it apart from the conversation. */
export const systemInstruction = (messages: readonly ChatMessage[]): string | undefined => {
  const parts = messages.flatMap((m) => (m.role === 'system' && m.content.trim() !== '' ? [m.content] : []));
  return parts.length > 0 ? parts.join('\n\n') : undefined;
};

/** Said to a model whose vendor has no JSON mode, when a JSON answer is asked for. */
export const JSON_ONLY = 'Answer with one JSON value only: no prose before or after it, and no code fence.';

/** The instruction for a JSON answer of a given shape, for vendors that cannot hold the model to it. */
export const jsonInstruction = (schema: Readonly<Record<string, unknown>> | undefined) =>
  schema ? `${JSON_ONLY} It must match this JSON Schema: ${JSON.stringify(schema)}` : JSON_ONLY;

/**
 * The chat actions of a model app that has no Automatisch keys to keep (Gemini, Ollama): one
 * prompt, and a conversation with every sampling setting.
 */
export const promptAndChatActions = (asked: string): ChatActionSpec[] => [
  {
    key: 'sendPrompt',
    name: 'Send prompt',
    description: `Asks ${asked} one question and answers its text.`,
    input: 'prompt',
    options: ['system', 'temperature', 'maxTokens'],
  },
  {
    key: 'sendChatPrompt',
    name: 'Send chat prompt',
    description: 'Sends a conversation of system, user and assistant messages, and answers the model’s next message.',
    input: 'messages',
    options: [
      'system',
      'temperature',
      'maxTokens',
      'stopSequences',
      'topP',
      'topK',
      'frequencyPenalty',
      'presencePenalty',
    ],
  },
];
