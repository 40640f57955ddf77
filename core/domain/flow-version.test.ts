import { describe, expect, it } from 'vitest';
import type { Step } from './flow.js';
import { canonical, compareContents, contentOf, differs, type FlowContent, stepsOfVersion } from './flow-version.js';

const T = new Date('2026-11-27T00:00:00.000Z');
const step = (id: string, position: number, over: Partial<Step> = {}): Step => ({
  id,
  flowId: 'f',
  type: position === 1 ? 'trigger' : 'action',
  appKey: 'formatter',
  key: 'text',
  name: null,
  position,
  status: 'completed',
  parameters: { input: 'a', transform: 'uppercase' },
  connectionId: null,
  appVersion: 1,
  continueOnFailure: false,
  structuralType: 'single',
  parentStepId: null,
  branchConditions: null,
  createdAt: T,
  updatedAt: T,
  ...over,
});

describe('flow versions', () => {
  it('takes a draft’s content by position, leaving out where and when its steps were written', () => {
    const content = contentOf('Orders', [step('b', 2), step('a', 1)]);
    expect(content.steps.map((s) => s.id)).toEqual(['a', 'b']);
    expect(content.steps[0]).not.toHaveProperty('flowId');
    expect(content.steps[0]).not.toHaveProperty('updatedAt');
    expect(stepsOfVersion({ flowId: 'f', createdAt: T, steps: content.steps })).toEqual([step('a', 1), step('b', 2)]);
  });

  it('prints equal values the same whatever the order of their keys', () => {
    expect(JSON.stringify(canonical({ b: 1, a: [{ d: 2, c: null }] }))).toBe('{"a":[{"c":null,"d":2}],"b":1}');
  });

  it('names added, removed and changed steps, and which fields and parameters changed', () => {
    const from: FlowContent = contentOf('Orders', [step('t', 1), step('x', 2), step('gone', 3)]);
    const to: FlowContent = contentOf('Orders, v2', [
      step('t', 1),
      step('x', 2, { name: 'Shout', parameters: { transform: 'uppercase', input: 'b', extra: true } }),
      step('new', 3, { appKey: 'datastore', key: 'setValue' }),
    ]);
    expect(compareContents(from, to)).toEqual({
      name: { from: 'Orders', to: 'Orders, v2' },
      added: [{ stepId: 'new', label: 'datastore · setValue', fields: [] }],
      removed: [{ stepId: 'gone', label: 'formatter · text', fields: [] }],
      changed: [{ stepId: 'x', label: 'Shout', fields: ['name', 'parameters.extra', 'parameters.input'] }],
    });
  });

  it('sees no difference in key order, timestamps or status, and one in position or an option', () => {
    const published = contentOf('Orders', [step('t', 1), step('x', 2)]);
    const reordered = contentOf('Orders', [
      step('t', 1, { updatedAt: new Date(0), status: 'incomplete' }),
      step('x', 2, { parameters: { transform: 'uppercase', input: 'a' } }),
    ]);
    expect(differs(reordered, published)).toBe(false);
    expect(differs(contentOf('Orders', [step('t', 1), step('x', 2, { continueOnFailure: true })]), published)).toBe(
      true,
    );
    expect(differs(contentOf('Orders', [step('t', 1), step('x', 3)]), published)).toBe(true);
    expect(differs(published, null)).toBe(true);
  });
});
