import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../types';
import { choicesFor } from '../variables';
import { editorKindOf } from './editor-kind';
import { jsonProblem, masked } from './json-check';
import { describeVariable, type Segment, segmentsOf, templateOf } from './template';

const ID = 'f7899a92-c6b7-4afa-97bc-a0d2cae2c0f0';
const variable = (segments: Segment[], index: number) => {
  const found = segments.filter((s) => s.kind === 'variable')[index];
  if (found?.kind !== 'variable') throw new Error(`no variable ${index}`);
  return found;
};

describe('template ⇄ chips', () => {
  it('cuts text around several variables and joins them back exactly', () => {
    const template = `Dear {{step.${ID}.body.order.customer}}, your order {{ step.${ID}.body.items[0].id }} is in.{{execution.resumeUrl}}`;
    const segments = segmentsOf(template);
    expect(segments.map((s) => [s.kind, s.text])).toEqual([
      ['text', 'Dear '],
      ['variable', `{{step.${ID}.body.order.customer}}`],
      ['text', ', your order '],
      ['variable', `{{ step.${ID}.body.items[0].id }}`],
      ['text', ' is in.'],
      ['variable', '{{execution.resumeUrl}}'],
    ]);
    expect(variable(segments, 0)).toMatchObject({ stepId: ID, path: 'body.order.customer' });
    expect(variable(segments, 1)).toMatchObject({ stepId: ID, path: 'body.items[0].id' });
    expect(variable(segments, 2)).toMatchObject({ stepId: null, path: 'resumeUrl' });
    expect(templateOf(segments)).toBe(template);
  });

  it('leaves a partial or foreign `{{` as text', () => {
    for (const text of ['{{', `{{step.${ID}.body`, 'a {{ b }} c', '{{step..x}', '}}{{', `{{step.${ID}.a b}}`]) {
      expect(segmentsOf(text).every((s) => s.kind === 'text')).toBe(true);
      expect(templateOf(segmentsOf(text))).toBe(text);
    }
    // A variable right after an unfinished one is still a variable.
    const segments = segmentsOf(`{{step.${ID}.x {{step.${ID}.y}}`);
    expect(segments.map((s) => s.kind)).toEqual(['text', 'variable']);
    expect(variable(segments, 0).path).toBe('y');
  });

  it('gives any text back unchanged', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '{{',
        '}}',
        `{{step.${ID}.body.name}}`,
        '{{execution.resumeUrl}}',
        `{{ step.${ID}.a[2].b }}`,
        '{',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece), (pieces) => {
        const text = pieces.join('');
        const segments = segmentsOf(text);
        expect(templateOf(segments)).toBe(text);
        // Text never sits next to text: each variable stands between the texts around it.
        for (let i = 1; i < segments.length; i++) {
          expect(segments[i - 1]?.kind === 'text' && segments[i]?.kind === 'text').toBe(false);
        }
      }),
    );
  });
});

describe('chip labels', () => {
  const webhook = {
    id: ID,
    position: 1,
    name: null,
    key: 'catchRawWebhook',
    appKey: 'webhook',
    structuralType: null,
    lastExecutionStep: { dataOut: { body: { order: { customer: 'Ada Lovelace' }, items: [{ id: 7 }] } } },
  } as unknown as Step;
  const formatter = {
    id: 'b',
    position: 2,
    name: 'Formatter',
    appKey: 'formatter',
    structuralType: null,
  } as unknown as Step;
  const groups = choicesFor([webhook, formatter], new Set());

  it("reads the step's position and name, the path, and the sample", () => {
    const [chip] = segmentsOf(`{{step.${ID}.body.order.customer}}`);
    expect(describeVariable(chip as never, groups)).toEqual({
      label: '1. Catch raw webhook › body › order › customer',
      sample: 'Ada Lovelace',
      known: true,
    });
    const [indexed] = segmentsOf(`{{ step.${ID}.body.items[0].id }}`);
    expect(describeVariable(indexed as never, groups)).toMatchObject({
      label: '1. Catch raw webhook › body › items › 0 › id',
      sample: '7',
    });
    const [untested] = segmentsOf('{{step.b.output}}');
    expect(describeVariable(untested as never, groups)).toMatchObject({
      label: '2. Formatter › output',
      known: true,
    });
    expect(describeVariable(untested as never, groups).sample).toMatch(/no sample yet/);
    const [run] = segmentsOf('{{execution.resumeUrl}}');
    expect(describeVariable(run as never, groups).label).toBe('This run › resume URL');
    const [gone] = segmentsOf('{{step.deleted-step.x}}');
    expect(describeVariable(gone as never, groups)).toMatchObject({ label: 'Unknown step › x', known: false });
  });
});

describe('JSON with variables', () => {
  it('checks JSON with variables in and out of strings, keeping offsets', () => {
    const text = `{"name": "{{step.${ID}.body.name}}", "count": {{step.${ID}.body.n}}}`;
    expect(masked(text)).toHaveLength(text.length);
    expect(jsonProblem(text)).toBeNull();
    expect(jsonProblem('')).toBeNull();
  });

  it('names the line and column of the first error', () => {
    expect(jsonProblem('{\n  "a": 1\n  "b": 2\n}')?.message).toMatch(/^JSON syntax error at line 3, column 3: /);
    expect(jsonProblem('{"a": }')?.message).toMatch(/^JSON syntax error at line 1, column 7: /);
    expect(jsonProblem('{"a": 1')?.message).toMatch(/^JSON syntax error at line 1, column 8: /);
  });
});

describe('editor kinds', () => {
  const arg = (over: object) => ({ key: 'x', label: 'X', type: 'string', required: false, ...over }) as never;
  it('gives code, JSON, bodies and long text their editors', () => {
    expect(editorKindOf(arg({ type: 'code', language: 'javascript' }))).toBe('code');
    expect(editorKindOf(arg({ type: 'json' }))).toBe('json');
    expect(editorKindOf(arg({ key: 'data', label: 'Body', acceptsVariables: true }))).toBe('body');
    expect(editorKindOf(arg({ key: 'message', label: 'Message', acceptsVariables: true }))).toBe('text');
    expect(editorKindOf(arg({ key: 'input', label: 'Input', acceptsVariables: true }))).toBe('line');
    expect(editorKindOf(arg({ key: 'messageId', label: 'Message ID', acceptsVariables: true }))).toBe('line');
    expect(editorKindOf(arg({ key: 'text', label: 'Message text', acceptsVariables: true }))).toBe('text');
    expect(editorKindOf(arg({ key: 'query', label: 'Search Query', acceptsVariables: true }))).toBe('line');
    expect(editorKindOf(arg({ key: 'bodyType', label: 'Body type', acceptsVariables: true }))).toBe('line');
    expect(editorKindOf(arg({ key: 'apiKey', label: 'API key', secret: true, acceptsVariables: true }))).toBe('input');
    expect(editorKindOf(arg({ key: 'host', label: 'Host' }))).toBe('input');
    expect(editorKindOf(arg({ type: 'dropdown', acceptsVariables: true }))).toBe('input');
  });
});
