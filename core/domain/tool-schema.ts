import type { ArgumentDescription, StepDescription } from './app.js';

/** A JSON Schema of an object (a tool's input), as MCP and the models' tool calling take it. */
export type ObjectSchema = {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
  readonly additionalProperties: boolean;
};

const valueSchema = (argument: ArgumentDescription): Record<string, unknown> => {
  switch (argument.type) {
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return {};
    case 'keyValueList':
      return {
        type: 'array',
        items: {
          type: 'object',
          properties: { key: { type: 'string' }, value: { type: 'string' } },
          required: ['key', 'value'],
        },
      };
    case 'dropdown': {
      const values = argument.options?.map((option) => option.value);
      // A dynamic dropdown's options are the connection's (its channels, its sheets): not known here.
      const one = values && values.length > 0 ? { enum: values } : { type: ['string', 'number'] };
      return argument.multiple ? { type: 'array', items: one } : one;
    }
    default:
      return { type: 'string' };
  }
};

/**
 * The input schema of an action used as a tool (by an agent, or an MCP client): one property per
 * argument, described by its description (else its label); those the action requires, required.
 */
export const toolInputSchema = (step: Pick<StepDescription, 'arguments'>): ObjectSchema => {
  const properties: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const argument of step.arguments) {
    const text = [argument.label, argument.description].filter(Boolean).join(': ');
    properties[argument.key] = {
      ...valueSchema(argument),
      ...(text && { description: text }),
      ...(argument.defaultValue !== undefined && { default: argument.defaultValue }),
    };
  }
  return {
    type: 'object',
    properties,
    required: step.arguments.filter((a) => a.required && a.defaultValue === undefined).map((a) => a.key),
    additionalProperties: false,
  };
};

/** What a tool's name may hold (the models' and MCP's common rule): an action's is `<app>_<action>`. */
export const toolNameOf = (appKey: string, actionKey: string): string =>
  `${appKey}_${actionKey}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
