import { describe, expect, it } from 'vitest';
import type { ArgumentDescription } from './app.js';
import { toolInputSchema, toolNameOf } from './tool-schema.js';

const arg = (over: Partial<ArgumentDescription> & Pick<ArgumentDescription, 'key' | 'type'>): ArgumentDescription => ({
  label: over.key,
  required: false,
  ...over,
});

describe('toolInputSchema', () => {
  it('gives each argument its JSON type, description and default, and requires what the action requires', () => {
    const schema = toolInputSchema({
      arguments: [
        arg({ key: 'channel', type: 'dropdown', required: true, dynamicData: { key: 'listChannels', dependsOn: [] } }),
        arg({ key: 'text', type: 'string', required: true, label: 'Text', description: 'What to say' }),
        arg({ key: 'count', type: 'number', required: true, defaultValue: 1 }),
        arg({ key: 'urgent', type: 'boolean' }),
        arg({ key: 'mode', type: 'dropdown', options: [{ label: 'A', value: 'a' }], multiple: true }),
        arg({ key: 'headers', type: 'keyValueList' }),
        arg({ key: 'body', type: 'json' }),
      ],
    });
    expect(schema.required).toEqual(['channel', 'text']);
    expect(schema.properties).toMatchObject({
      channel: { type: ['string', 'number'] },
      text: { type: 'string', description: 'Text: What to say' },
      count: { type: 'number', default: 1 },
      urgent: { type: 'boolean' },
      mode: { type: 'array', items: { enum: ['a'] } },
      headers: { type: 'array' },
      body: { description: 'body' },
    });
    expect(schema.additionalProperties).toBe(false);
  });

  it('names a tool from its app and action within what models accept', () => {
    expect(toolNameOf('google-sheets', 'createSpreadsheetRow')).toBe('google-sheets_createSpreadsheetRow');
    expect(toolNameOf('a.b', 'x'.repeat(80))).toMatch(/^a_b_x+$/);
    expect(toolNameOf('a', 'x'.repeat(80))).toHaveLength(64);
  });
});
