import type { JsonSchema } from '../../../ports/language-model.js';
import {
  type AppContext,
  type ArgumentMap,
  defineAction,
  dropdown,
  json,
  type KeyValue,
  keyValueList,
  type LanguageModel,
  type LanguageModelFactory,
  text,
} from '../sdk/index.js';
import { type LlmAction, type ModelChoice, modelArguments, requestSettings } from './chat-arguments.js';
import { askForJson, schemaProblem } from './json-answer.js';

/** What every model step records beside its answer: the model that answered and the tokens it took. */
export const usageOutput = (answer: { model: string; usage: { inputTokens: number; outputTokens: number } }) => ({
  model: answer.model,
  usage: { inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens },
});

/** The app's model for a step: the factory takes any hook's context. */
export const modelFor = (factory: LanguageModelFactory, ctx: AppContext<unknown>): LanguageModel =>
  factory(ctx as AppContext);

const FIELD_TYPES = {
  text: { type: 'string' },
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  list: { type: 'array', items: { type: 'string' } },
} as const;

type FieldType = keyof typeof FIELD_TYPES;

/**
 * A field row's value: a type (`text`, `number`, `integer`, `boolean`, `list` of texts), optionally
 * followed by `: description`; anything else is the description of a text field.
 */
const fieldSchema = (row: KeyValue) => {
  const match = /^\s*(text|string|number|integer|boolean|list)\s*(?::\s*([\s\S]*))?$/i.exec(row.value);
  const type = (match?.[1]?.toLowerCase() ?? 'text') as FieldType;
  const description = (match ? (match[2] ?? '') : row.value).trim();
  const base = FIELD_TYPES[type];
  // Every field may be missing from the text: null then, rather than a made-up value.
  return { ...base, type: [base.type, 'null'], ...(description !== '' && { description }) };
};

/** The JSON Schema the fields describe: every field present, null when the text does not give it. */
export const fieldsSchema = (fields: readonly KeyValue[]): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(fields.map((row) => [row.key, fieldSchema(row)])),
  required: fields.map((row) => row.key),
  additionalProperties: false,
});

const instructions = text({
  label: 'Instructions',
  acceptsVariables: true,
  description: 'Anything more the model should know (the domain, how to read the text...).',
});

const textToRead = (label: string) => text({ label, required: true, acceptsVariables: true });

const system = (...parts: (string | undefined)[]) => parts.filter((p) => p && p.trim() !== '').join('\n\n');

const extractStructuredData = (factory: LanguageModelFactory, model: ArgumentMap) =>
  defineAction({
    key: 'extractStructuredData',
    name: 'Extract structured data',
    description: 'Reads text and answers the data it holds as JSON of the shape you describe, checked.',
    arguments: {
      ...model,
      text: textToRead('Text'),
      fields: keyValueList({
        label: 'Fields',
        acceptsVariables: true,
        description:
          'Each field to extract: its name, and its type (text, number, integer, boolean or list), optionally ' +
          'followed by ": description" (e.g. "number: the total in euros"). Or give a JSON Schema instead.',
      }),
      schema: json({
        label: 'JSON Schema',
        acceptsVariables: true,
        description: 'The shape of the answer as a JSON Schema of an object, instead of fields.',
        placeholder: '{"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]}',
      }),
      instructions,
    },
    check(parameters): Record<string, string> | null {
      const hasFields = Array.isArray(parameters.fields) && parameters.fields.length > 0;
      const hasSchema = parameters.schema !== undefined;
      if (hasFields === hasSchema) return { fields: 'give either fields or a JSON Schema, not both.' };
      const problem = hasSchema ? schemaProblem(parameters.schema) : null;
      return problem ? { schema: problem } : null;
    },
    async run(ctx) {
      const p = ctx.parameters as Readonly<Record<string, unknown>>;
      const schema = (p.schema as JsonSchema | undefined) ?? fieldsSchema(p.fields as KeyValue[]);
      const answer = await askForJson(
        modelFor(factory, ctx),
        {
          ...requestSettings(p),
          messages: [
            {
              role: 'system',
              content: system(
                'You extract data from the text the user sends. Answer with only a JSON object that fits this ' +
                  `JSON Schema, and use null for what the text does not say:\n${JSON.stringify(schema)}`,
                p.instructions as string | undefined,
              ),
            },
            { role: 'user', content: String(p.text) },
          ],
        },
        schema,
        'extraction',
      );
      return { data: answer.value, ...usageOutput(answer), attempts: answer.attempts };
    },
  });

const labelsOf = (rows: readonly KeyValue[]) => [...new Set(rows.map((row) => row.key))];

const classifyText = (factory: LanguageModelFactory, model: ArgumentMap) =>
  defineAction({
    key: 'classifyText',
    name: 'Classify text',
    description: 'Chooses which one of your labels fits a text: its output `label` can drive the paths that follow.',
    arguments: {
      ...model,
      text: textToRead('Text'),
      labels: keyValueList({
        label: 'Labels',
        required: true,
        acceptsVariables: true,
        description: 'Each label the text may get, with when it applies (optional, but it helps the model).',
      }),
      instructions,
    },
    check(parameters) {
      return labelsOf(parameters.labels).length < 2 ? { labels: 'needs at least two labels.' } : null;
    },
    async run(ctx) {
      const p = ctx.parameters as Readonly<Record<string, unknown>>;
      const rows = p.labels as KeyValue[];
      const labels = labelsOf(rows);
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          label: { type: 'string', enum: labels },
          reason: { type: 'string', description: 'Why this label fits, in one sentence.' },
        },
        required: ['label', 'reason'],
        additionalProperties: false,
      };
      const listed = rows.map((row) => `- ${row.key}${row.value ? `: ${row.value}` : ''}`).join('\n');
      const answer = await askForJson(
        modelFor(factory, ctx),
        {
          ...requestSettings(p),
          messages: [
            {
              role: 'system',
              content: system(
                `You classify the text the user sends with exactly one of these labels:\n${listed}\n\n` +
                  `Answer with only a JSON object that fits this JSON Schema:\n${JSON.stringify(schema)}`,
                p.instructions as string | undefined,
              ),
            },
            { role: 'user', content: String(p.text) },
          ],
        },
        schema,
        'classification',
      );
      const { label, reason } = answer.value as { label: string; reason: string };
      return { label, reason, ...usageOutput(answer), attempts: answer.attempts };
    },
  });

const LENGTHS = {
  short: 'in one or two sentences',
  medium: 'in one paragraph',
  long: 'in a few paragraphs, keeping every important point',
} as const;

const summarizeText = (factory: LanguageModelFactory, model: ArgumentMap) =>
  defineAction({
    key: 'summarizeText',
    name: 'Summarize text',
    description: 'Summarizes a text, as long and in the style you choose.',
    arguments: {
      ...model,
      text: textToRead('Text'),
      length: dropdown({
        label: 'Length',
        default: 'medium',
        options: [
          { label: 'Short (a sentence or two)', value: 'short' },
          { label: 'Medium (a paragraph)', value: 'medium' },
          { label: 'Long (a few paragraphs)', value: 'long' },
        ],
      }),
      style: dropdown({
        label: 'Style',
        default: 'prose',
        options: [
          { label: 'Prose', value: 'prose' },
          { label: 'Bullet points', value: 'bulletPoints' },
        ],
      }),
      instructions,
    },
    async run(ctx) {
      const p = ctx.parameters as Readonly<Record<string, unknown>>;
      const length = LENGTHS[p.length as keyof typeof LENGTHS];
      const style = p.style === 'bulletPoints' ? 'as a list of bullet points' : 'as prose';
      const answer = await modelFor(factory, ctx).chat({
        ...requestSettings(p),
        messages: [
          {
            role: 'system',
            content: system(
              `Summarize the text the user sends ${length}, ${style}, in the text's language. Answer with the summary only.`,
              p.instructions as string | undefined,
            ),
          },
          { role: 'user', content: String(p.text) },
        ],
      });
      return { summary: answer.text, ...usageOutput(answer), finishReason: answer.finishReason };
    },
  });

/** The AI actions every model app has (`extractStructuredData`, `classifyText`, `summarizeText`). */
export const sharedAiActions = (factory: LanguageModelFactory, choice: ModelChoice): LlmAction[] => {
  const model = modelArguments(choice, false);
  return [extractStructuredData(factory, model), classifyText(factory, model), summarizeText(factory, model)];
};
