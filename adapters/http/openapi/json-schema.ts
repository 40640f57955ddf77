import { type ConversionConfig, type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

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

const convert = (schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema => {
  const { $schema: _draft, ...converted } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    // Anything else it cannot convert is a mistake to see at once, not a hole in the document.
    errorMode: 'throw',
    typeMode,
    ignoreActions: NARROWING_ACTIONS,
    overrideAction: describeFlaggedRegex,
  });
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
