import { type ChatMessage, defineAction, type LanguageModelFactory, text } from '../sdk/index.js';
import { modelFor, usageOutput } from './ai-actions.js';
import {
  type ChatOptionKey,
  type LlmAction,
  type MessageRole,
  type ModelChoice,
  messagesArgument,
  modelArguments,
  optionArguments,
  requestSettings,
  withSystem,
} from './chat-arguments.js';

/** One of an app's own chat actions, under its Automatisch key (`sendPrompt`, `sendChatPrompt`, `createChatCompletion`...). */
export interface ChatActionSpec {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** `prompt`: one text, sent as the user's message (Automatisch's `prompt`); `messages`: a conversation. */
  readonly input: 'prompt' | 'messages';
  /** The roles `messages` may have (system, user and assistant by default). */
  readonly roles?: readonly MessageRole[];
  /** The optional settings shown, under Automatisch's keys, in this order after the input. */
  readonly options: readonly ChatOptionKey[];
  /** Anthropic's Messages API wants `maxTokens`. */
  readonly maxTokensRequired?: boolean;
}

const prompt = text({ label: 'Prompt', required: true, acceptsVariables: true, description: 'What to ask the model.' });

/** A chat action: its answer's `text`, the `model` that answered, the `usage` in tokens, and the `finishReason`. */
export const chatAction = (factory: LanguageModelFactory, choice: ModelChoice, spec: ChatActionSpec): LlmAction =>
  defineAction({
    key: spec.key,
    name: spec.name,
    description: spec.description,
    arguments: {
      ...modelArguments(choice, true),
      ...(spec.input === 'prompt'
        ? { prompt }
        : { messages: messagesArgument(spec.roles ?? ['system', 'user', 'assistant']) }),
      ...optionArguments(spec.options, spec.maxTokensRequired),
    },
    async run(ctx) {
      const p = ctx.parameters as Readonly<Record<string, unknown>>;
      const messages: readonly ChatMessage[] =
        spec.input === 'prompt' ? [{ role: 'user', content: String(p.prompt) }] : (p.messages as ChatMessage[]);
      const answer = await modelFor(factory, ctx).chat({ ...requestSettings(p), messages: withSystem(p, messages) });
      return { text: answer.text, ...usageOutput(answer), finishReason: answer.finishReason };
    },
  });

/** Automatisch's sampling settings of OpenAI's chat actions. */
export const OPENAI_SAMPLING: readonly ChatOptionKey[] = [
  'temperature',
  'maxTokens',
  'stopSequence',
  'topP',
  'frequencyPenalty',
  'presencePenalty',
];

/** OpenAI's `sendPrompt` and `sendChatPrompt`, which other OpenAI-style apps take after it; `model` names whose model is asked. */
export const sendPromptActions = (
  model: string,
  options: readonly ChatOptionKey[] = OPENAI_SAMPLING,
): ChatActionSpec[] => [
  {
    key: 'sendPrompt',
    name: 'Send prompt',
    description: `Sends one prompt to ${model} and answers its text, with the tokens it took.`,
    input: 'prompt',
    options,
  },
  {
    key: 'sendChatPrompt',
    name: 'Send chat prompt',
    description: `Sends a conversation (system, user and assistant messages) to ${model} and answers the next message.`,
    input: 'messages',
    options,
  },
];
