import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { RESOURCE_SCHEMAS } from '../schemas/resources.schemas.js';

/**
 * Actions JSON Schema cannot say, but that only narrow or normalise what it does say: `check`
 * (custom rules, such as "an object, not an array"), `trim`, and `transform` of query strings.
 * The server still enforces them; the document is just less strict than the server.
 */
const NARROWING_ACTIONS = ['check', 'trim', 'transform'];

/** A case-insensitive pattern has no JSON Schema form: it is described in words instead. */
const describeFlaggedRegex: ConversionConfig['overrideAction'] = ({ valibotAction, jsonSchema }) => {
  if (valibotAction.type !== 'regex') return undefined;
  const { requirement } = valibotAction as unknown as { requirement: RegExp };
  if (!requirement.flags) return undefined;
  const { pattern: _dropped, ...rest } = jsonSchema;
  return { ...rest, description: `matches /${requirement.source}/${requirement.flags}` };
};

const config = (typeMode: 'input' | 'output'): ConversionConfig => ({
  target: 'draft-2020-12',
  // Anything else it cannot convert is a mistake to see at once, not a hole in the document.
  errorMode: 'throw',
  typeMode,
  ignoreActions: NARROWING_ACTIONS,
  overrideAction: describeFlaggedRegex,
});

const convert = (schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema => {
  const { $schema: _draft, ...converted } = toJsonSchema(schema, config(typeMode));
  return converted;
};

/** The named answer schemas refer to each other, and answers to them, under `components.schemas`. */
const answers: ConversionConfig = {
  ...config('output'),
  definitions: RESOURCE_SCHEMAS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** `components.schemas` of the answers (resources.schemas.ts), each by its name. */
export const resourceJsonSchemas = (): Record<string, JsonSchema> => toJsonSchemaDefs(RESOURCE_SCHEMAS, answers);

/** The `data` of a route's answer: a `$ref` to a named schema, or an array of them. */
export const answerJsonSchema = (schema: v.GenericSchema): JsonSchema => {
  const { $schema: _draft, $defs: _named, ...converted } = toJsonSchema(schema, answers);
  return converted;
};

/**
 * A request body's schema. The output type, because body schemas start with an "is an object"
 * check on `unknown` before the object schema that says what the object holds; `trim` and
 * defaults do not change the shape a client sends.
 */
export const bodyJsonSchema = (schema: v.GenericSchema): JsonSchema => convert(schema, 'output');

/** A query's schema: the strings the client sends, before any transform to numbers. */
export const queryJsonSchema = (schema: v.GenericSchema): JsonSchema => convert(schema, 'input');
