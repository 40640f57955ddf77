import fc from 'fast-check';
import { deepValue } from './hostile.js';

/** The JSON Schema subset the OpenAPI document uses (valibot's conversion, draft 2020-12). */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
  readonly $ref?: string;
}

/**
 * Values worth trying for a `format: uuid` field or a path parameter: ids that exist, of every kind.
 * The list grows during a run (deleted rows are replaced), so values are drawn when generated.
 */
export interface IdPool {
  readonly ids: readonly string[];
}

/** One of the list's values as it is when the value is generated, not when the arbitrary is built. */
export const oneOfLive = (values: readonly string[]): fc.Arbitrary<string> =>
  fc.nat().map((index) => values[index % values.length] as string);

const MAX_ITEMS = 4;

const stringOf = (schema: JsonSchema, pool: IdPool): fc.Arbitrary<string> => {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, Math.max(minLength, 40));
  switch (schema.format) {
    case 'uuid':
      return pool.ids.length > 0 ? fc.oneof(oneOfLive(pool.ids), fc.uuid()) : fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
    default:
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
        { weight: 2, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) },
        // A NUL, which one database stores and the other refuses.
        { weight: 1, arbitrary: fc.string({ minLength, maxLength }).map((s) => `${s.slice(0, maxLength - 1)}\u0000`) },
      );
  }
};

const numberOf = (schema: JsonSchema, integer: boolean): fc.Arbitrary<number> => {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  return integer
    ? fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31)) })
    : fc.double({ min, max, noNaN: true });
};

/**
 * Values a schema accepts, more or less: the server's own checks (custom rules, patterns written in
 * words) are stricter than the document, so some of these are refused with a 422, as they should be.
 */
export const schemaValue = (schema: JsonSchema, pool: IdPool, depth = 0): fc.Arbitrary<unknown> => {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => schemaValue(alternative, pool, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => schemaValue({ ...schema, type }, pool, depth + 1)));
  switch (types[0]) {
    case 'string':
      return stringOf(schema, pool);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? schemaValue(schema.items, pool, depth + 1) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)),
      });
    case 'object':
      return objectOf(schema, pool, depth);
    default:
      // `{}`: anything JSON, now and then nested deeper than anything real.
      return fc.oneof(
        { weight: 6, arbitrary: fc.jsonValue({ maxDepth: Math.max(0, 3 - depth) }) },
        { weight: 1, arbitrary: deepValue },
      );
  }
};

const objectOf = (schema: JsonSchema, pool: IdPool, depth: number): fc.Arbitrary<unknown> => {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, schemaValue(property, pool, depth + 1)]),
    ),
    { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) },
  );
  const extra = schema.additionalProperties;
  if (!extra || Object.keys(properties).length > 0) return record;
  const values = extra === true ? fc.jsonValue({ maxDepth: 2 }) : schemaValue(extra, pool, depth + 1);
  return fc.dictionary(fc.string({ maxLength: 12 }), values, { maxKeys: MAX_ITEMS });
};
