import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Argument, type ArgumentMap, boolean, dropdown, json, number, text } from '../sdk/index.js';

type Property = Readonly<Record<string, unknown>>;

/** A property's type; for a union with null (`["string", "null"]`), the other one. */
const typeOf = (property: Property): string | undefined => {
  const { type } = property;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
};

const isOption = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A default, shown as a hint: the server applies it when the argument is left out. */
const hintOf = (property: Property) => (isOption(property.default) ? { placeholder: String(property.default) } : {});

const fieldOf = (key: string, property: Property, required: boolean): Argument<unknown> => {
  const options = {
    label: typeof property.title === 'string' ? property.title : key,
    required,
    acceptsVariables: true,
    ...(typeof property.description === 'string' && { description: property.description }),
    ...hintOf(property),
  };
  const values = Array.isArray(property.enum) ? property.enum : null;
  if (values && values.length > 0 && values.every(isOption))
    return dropdown({ ...options, options: values.map((value) => ({ label: String(value), value })) });
  switch (typeOf(property)) {
    case 'string':
      return text(options);
    case 'integer':
      return number({ ...options, integer: true });
    case 'number':
      return number(options);
    case 'boolean':
      return boolean(options);
    default:
      // Objects, arrays and anything untyped: typed as JSON.
      return json(options);
  }
};

/**
 * A tool's arguments as the step's fields, from its input schema: one per property, typed by the
 * property's type, required as the schema says unless `given` already holds it (the step's raw
 * `arguments`). Properties named as the step's own arguments (`reserved`) are left to the raw ones.
 */
export const toolFields = (
  tool: Pick<Tool, 'inputSchema'>,
  reserved: readonly string[],
  given: Readonly<Record<string, unknown>> = {},
): ArgumentMap => {
  const properties = (tool.inputSchema.properties ?? {}) as Readonly<Record<string, unknown>>;
  const required = new Set(tool.inputSchema.required ?? []);
  const fields: Record<string, Argument<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (reserved.includes(key) || typeof property !== 'object' || property === null) continue;
    fields[key] = fieldOf(key, property as Property, required.has(key) && !Object.hasOwn(given, key));
  }
  return fields;
};
