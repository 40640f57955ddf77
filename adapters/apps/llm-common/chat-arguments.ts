import * as v from 'valibot';
import type { ArgumentOption } from '../../../core/domain/app.js';
import type { ChatMessage, ChatRequest } from '../sdk/index.js';
import {
  type ActionDefinition,
  type ArgumentMap,
  dropdown,
  dynamicDropdown,
  json,
  number,
  text,
} from '../sdk/index.js';

/** An action of a model app: its arguments name at most the `listModels` dynamic data, and no dynamic fields. */
export type LlmAction = ActionDefinition<ArgumentMap, never>;

/**
 * How a model app's steps choose the model: from the vendor's list (`listModels`, a dynamic
 * dropdown), from a fixed list (Perplexity's Sonar models), or not at all (Azure: the connection's
 * deployment is the model).
 */
export type ModelChoice =
  | { readonly kind: 'listed' }
  | { readonly kind: 'fixed'; readonly options: readonly ArgumentOption[] }
  | { readonly kind: 'none' };

/** The model argument (`model`) of a step, required in Automatisch's chat actions, optional in the AI actions. */
export const modelArguments = (choice: ModelChoice, required: boolean): ArgumentMap => {
  const description = required ? undefined : "The connection's default model when none is chosen.";
  const common = { label: 'Model', required, acceptsVariables: true, ...(description && { description }) };
  switch (choice.kind) {
    case 'listed':
      return { model: dynamicDropdown({ ...common, dynamicData: 'listModels' }) };
    case 'fixed':
      return { model: dropdown({ ...common, options: choice.options }) };
    case 'none':
      return {};
  }
};

export type MessageRole = 'system' | 'user' | 'assistant';

const messagesSchema = (roles: readonly MessageRole[]) => {
  const shape = `must be a list of messages, each {"role": ${roles.map((r) => `"${r}"`).join(' | ')}, "content": "..."}.`;
  return v.pipe(
    v.array(
      v.object(
        {
          role: v.picklist(roles, shape),
          content: v.pipe(v.string(shape), v.minLength(1, 'has a message without content.')),
        },
        shape,
      ),
      shape,
    ),
    v.minLength(1, 'needs at least one message.'),
  );
};

/** Automatisch's `messages` (its list of role and content rows), as a JSON list. */
export const messagesArgument = (roles: readonly MessageRole[]) =>
  json({
    label: 'Messages',
    required: true,
    acceptsVariables: true,
    description: `The conversation so far, in order: a list of {"role", "content"}; roles: ${roles.join(', ')}.`,
    placeholder: '[{"role": "system", "content": "You are terse."}, {"role": "user", "content": "{{step.1.text}}"}]',
    schema: messagesSchema(roles),
  });

/** Optional settings a chat action may show, under Automatisch's argument keys. */
export type ChatOptionKey =
  | 'system'
  | 'temperature'
  | 'maxTokens'
  | 'stopSequence'
  | 'stopSequences'
  | 'topP'
  | 'topK'
  | 'frequencyPenalty'
  | 'presencePenalty';

const stopSequencesSchema = v.pipe(
  v.array(
    v.union([v.string(), v.object({ stopSequence: v.optional(v.nullable(v.string())) })]),
    'must be a list of texts.',
  ),
  v.transform((rows) =>
    rows.map((row) => (typeof row === 'string' ? row : (row.stopSequence ?? ''))).filter((s) => s !== ''),
  ),
);

const OPTION_ARGUMENTS = {
  system: text({
    label: 'System prompt',
    acceptsVariables: true,
    description: 'Instructions the model follows for the whole conversation.',
  }),
  temperature: number({
    label: 'Temperature',
    min: 0,
    max: 2,
    acceptsVariables: true,
    description: 'Higher values (0.9) give more varied answers, 0 the most predictable ones.',
  }),
  maxTokens: number({
    label: 'Maximum tokens',
    integer: true,
    min: 1,
    acceptsVariables: true,
    description: 'The most tokens the answer may have.',
  }),
  stopSequence: text({
    label: 'Stop sequence',
    acceptsVariables: true,
    description: 'The model stops before this text.',
  }),
  stopSequences: json({
    label: 'Stop sequences',
    acceptsVariables: true,
    description: 'The model stops before any of these texts: a JSON list of texts.',
    placeholder: '["\\n\\n", "END"]',
    schema: stopSequencesSchema,
  }),
  topP: number({
    label: 'Top P',
    min: 0,
    max: 1,
    acceptsVariables: true,
    description: 'Nucleus sampling: 0.1 considers only the tokens of the top 10% probability mass.',
  }),
  topK: number({
    label: 'Top K',
    integer: true,
    min: 0,
    acceptsVariables: true,
    description: 'Considers only the K likeliest tokens.',
  }),
  frequencyPenalty: number({
    label: 'Frequency penalty',
    min: -2,
    max: 2,
    acceptsVariables: true,
    description: 'From -2 to 2: positive values make repeating the same words less likely.',
  }),
  presencePenalty: number({
    label: 'Presence penalty',
    min: -2,
    max: 2,
    acceptsVariables: true,
    description: 'From -2 to 2: positive values make new topics more likely.',
  }),
} as const;

export const optionArguments = (keys: readonly ChatOptionKey[], maxTokensRequired = false): ArgumentMap =>
  Object.fromEntries(
    keys.map((key) => [
      key,
      key === 'maxTokens' && maxTokensRequired
        ? number({
            label: 'Maximum tokens',
            integer: true,
            min: 1,
            required: true,
            acceptsVariables: true,
            description: 'The most tokens the answer may have.',
          })
        : OPTION_ARGUMENTS[key],
    ]),
  );

/** What a step's parameters set of a chat request (model, sampling, stops), beside its messages. */
export const requestSettings = (parameters: Readonly<Record<string, unknown>>): Omit<ChatRequest, 'messages'> => {
  const num = (key: string) => (typeof parameters[key] === 'number' ? (parameters[key] as number) : undefined);
  const stops = [
    ...(typeof parameters.stopSequence === 'string' && parameters.stopSequence !== '' ? [parameters.stopSequence] : []),
    ...(Array.isArray(parameters.stopSequences) ? (parameters.stopSequences as string[]) : []),
  ];
  const settings = {
    model: typeof parameters.model === 'string' && parameters.model !== '' ? parameters.model : undefined,
    temperature: num('temperature'),
    maxTokens: num('maxTokens'),
    topP: num('topP'),
    topK: num('topK'),
    frequencyPenalty: num('frequencyPenalty'),
    presencePenalty: num('presencePenalty'),
    stop: stops.length > 0 ? stops : undefined,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
};

/** The step's system prompt (`system`), if any, before the messages. */
export const withSystem = (
  parameters: Readonly<Record<string, unknown>>,
  messages: readonly ChatMessage[],
): ChatMessage[] =>
  typeof parameters.system === 'string' && parameters.system.trim() !== ''
    ? [{ role: 'system', content: parameters.system }, ...messages]
    : [...messages];
