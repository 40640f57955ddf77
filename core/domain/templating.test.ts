import { describe, expect, it } from 'vitest';
import { readPath, referencedStepIds, renderParameters, renderText } from './templating.js';

const TRIGGER = '0b6f1c1e-1111-4aaa-8bbb-000000000001';
const FORMAT = '0b6f1c1e-2222-4aaa-8bbb-000000000002';
const outputs = new Map<string, unknown>([
  [
    TRIGGER,
    {
      body: { name: 'Ada', tags: ['a', 'b'], items: [{ sku: 'X1', qty: 2 }], empty: null, zero: 0, ok: false },
      headers: { 'content-type': 'application/json' },
    },
  ],
  [FORMAT, { output: 'ADA' }],
]);

describe('readPath', () => {
  it.each([
    ['body.name', 'Ada'],
    ['body.tags.1', 'b'],
    ['body.tags[1]', 'b'],
    ['body.items.0.sku', 'X1'],
    ['body.items[0].qty', 2],
    ['body.missing.deeper', undefined],
    ['body.tags.9', undefined],
    ['body.tags.length', undefined],
    ['body.__proto__', undefined],
    ['body.constructor', undefined],
    ['', outputs.get(TRIGGER)],
  ])('%s', (path, expected) => {
    expect(readPath(outputs.get(TRIGGER), path)).toEqual(expected);
  });
});

describe('renderText', () => {
  it('puts values into text, objects and arrays as JSON, nothing for missing ones', () => {
    expect(renderText(`Hi {{step.${TRIGGER}.body.name}}!`, outputs)).toBe('Hi Ada!');
    expect(renderText(`{{step.${TRIGGER}.body.tags}}`, outputs)).toBe('["a","b"]');
    expect(renderText(`{{ step.${TRIGGER}.body.items.0 }}`, outputs)).toBe('{"sku":"X1","qty":2}');
    expect(renderText(`[{{step.${TRIGGER}.body.nope}}]`, outputs)).toBe('[]');
    expect(
      renderText(`{{step.${TRIGGER}.body.empty}}|{{step.${TRIGGER}.body.zero}}|{{step.${TRIGGER}.body.ok}}`, outputs),
    ).toBe('|0|false');
    expect(renderText(`{{step.${FORMAT}.output}} and {{step.unknown-step.output}}`, outputs)).toBe('ADA and ');
  });

  it('leaves text that is not a step reference alone', () => {
    expect(renderText('{{ not a reference }} {{step}} {step.x.y}', outputs)).toBe(
      '{{ not a reference }} {{step}} {step.x.y}',
    );
  });

  it('does not render what a value itself contains', () => {
    const sneaky = new Map<string, unknown>([[TRIGGER, { a: `{{step.${FORMAT}.output}}` }]]);
    expect(renderText(`{{step.${TRIGGER}.a}}`, sneaky)).toBe(`{{step.${FORMAT}.output}}`);
  });
});

describe('renderParameters', () => {
  it('renders strings at any depth and keeps other values', () => {
    const rendered = renderParameters(
      {
        subject: `Order from {{step.${TRIGGER}.body.name}}`,
        headers: [{ key: 'X-Name', value: `{{step.${FORMAT}.output}}` }],
        count: 3,
        flag: true,
        nothing: null,
      },
      outputs,
    );
    expect(rendered).toEqual({
      subject: 'Order from Ada',
      headers: [{ key: 'X-Name', value: 'ADA' }],
      count: 3,
      flag: true,
      nothing: null,
    });
  });

  it('reads arguments declared valueType parse as the JSON they spell', () => {
    const rendered = renderParameters(
      { items: `{{step.${TRIGGER}.body.items}}`, label: `{{step.${TRIGGER}.body.tags}}`, text: 'not json' },
      outputs,
      new Set(['items', 'text']),
    );
    expect(rendered).toEqual({ items: [{ sku: 'X1', qty: 2 }], label: '["a","b"]', text: 'not json' });
  });
});

describe('referencedStepIds', () => {
  it('lists each referenced step once, wherever it appears', () => {
    expect(
      referencedStepIds({
        a: `{{step.${TRIGGER}.body}} {{step.${FORMAT}.output}}`,
        b: [{ value: `{{step.${TRIGGER}.headers}}` }],
        c: 4,
      }),
    ).toEqual([TRIGGER, FORMAT]);
  });
});
