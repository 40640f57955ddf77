import { describe, expect, it } from 'vitest';
import type { StepType } from './flow.js';
import {
  containsReference,
  copySteps,
  emptyStep,
  type PlacedDefinition,
  publishRefusal,
  rewriteReferences,
  webhookPath,
} from './flow-rules.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const NEW_A = 'aaaaaaaa-ffff-4fff-8fff-000000000001';
const NEW_B = 'bbbbbbbb-ffff-4fff-8fff-000000000002';
const ids = new Map([
  [A, NEW_A],
  [B, NEW_B],
]);

describe('rewriteReferences', () => {
  it('points every reference to a mapped step at its new id, at any depth', () => {
    const parameters = {
      body: `Hello {{step.${A}.name}}, you owe {{step.${B}.amount.0}}`,
      headers: [{ key: 'x-id', value: `{{step.${A}.id}}` }],
      nested: { deeper: [`{{step.${B}.items.2.title}}`] },
    };
    expect(rewriteReferences(parameters, ids)).toEqual({
      body: `Hello {{step.${NEW_A}.name}}, you owe {{step.${NEW_B}.amount.0}}`,
      headers: [{ key: 'x-id', value: `{{step.${NEW_A}.id}}` }],
      nested: { deeper: [`{{step.${NEW_B}.items.2.title}}`] },
    });
  });

  it('keeps references to steps outside the map, and text that only looks alike', () => {
    const other = 'cccccccc-0000-4000-8000-000000000003';
    const parameters = {
      other: `{{step.${other}.name}}`,
      plain: `step.${A}.name`,
      noPath: `{{step.${A}}}`,
      spaced: `{{ step.${A}.name }}`,
    };
    expect(rewriteReferences(parameters, ids)).toEqual({
      other: `{{step.${other}.name}}`,
      plain: `step.${A}.name`,
      noPath: `{{step.${A}}}`,
      spaced: `{{ step.${NEW_A}.name }}`,
    });
  });

  it('leaves numbers, booleans and null alone and does not change its input', () => {
    const parameters = { n: 3, b: true, z: null, s: `{{step.${A}.x}}` };
    const copy = structuredClone(parameters);
    expect(rewriteReferences(parameters, ids)).toEqual({ n: 3, b: true, z: null, s: `{{step.${NEW_A}.x}}` });
    expect(parameters).toEqual(copy);
  });
});

describe('containsReference', () => {
  it('finds a reference anywhere in a value', () => {
    expect(containsReference(`{{step.${A}.x}}`)).toBe(true);
    expect(containsReference([{ value: `n = {{ step.${A}.x }}` }])).toBe(true);
    expect(containsReference({ a: { b: 'plain' } })).toBe(false);
    expect(containsReference(42)).toBe(false);
    expect(containsReference('{{ other.thing }}')).toBe(false);
  });
});

describe('publishRefusal', () => {
  const step = (type: StepType, status: 'completed' | 'incomplete' = 'completed') => ({ type, status });

  it('allows a trigger and actions that are all completed', () => {
    expect(publishRefusal([step('trigger'), step('action')])).toBeNull();
    expect(publishRefusal([step('trigger'), step('action'), step('action')])).toBeNull();
  });

  it('needs a trigger and an action', () => {
    expect(publishRefusal([step('trigger')])?.code).toBe('flow.insufficient_steps');
    expect(publishRefusal([step('action')])?.code).toBe('flow.insufficient_steps');
    expect(publishRefusal([])?.code).toBe('flow.insufficient_steps');
  });

  it('needs every step completed', () => {
    expect(publishRefusal([step('trigger', 'incomplete'), step('action')])?.code).toBe('flow.incomplete_steps');
    expect(publishRefusal([step('trigger'), step('action'), step('action', 'incomplete')])?.code).toBe(
      'flow.incomplete_steps',
    );
  });

  it('reports missing steps before incomplete ones', () => {
    expect(publishRefusal([step('trigger', 'incomplete')])?.code).toBe('flow.insufficient_steps');
  });
});

describe('webhookPath', () => {
  it('gives webhook triggers the flow’s address, synchronous ones its /sync address', () => {
    expect(webhookPath('f1', { type: 'trigger', parameters: {} }, 'webhook')).toBe('/webhooks/flows/f1');
    expect(webhookPath('f1', { type: 'trigger', parameters: { workSynchronously: true } }, 'webhook')).toBe(
      '/webhooks/flows/f1/sync',
    );
  });

  it('gives no address to other steps', () => {
    expect(webhookPath('f1', { type: 'trigger', parameters: {} }, 'polling')).toBeNull();
    expect(webhookPath('f1', { type: 'trigger', parameters: {} }, undefined)).toBeNull();
    expect(webhookPath('f1', { type: 'action', parameters: {} }, 'webhook')).toBeNull();
  });
});

const definition = (id: string, position: number, type: StepType, parameters = {}): PlacedDefinition => ({
  ...emptyStep(id, position, type),
  parameters,
});

describe('copySteps', () => {
  it('gives fresh ids, positions in order from 1, and rewrites references between the steps', () => {
    let n = 0;
    const fresh = () => `new-${++n}`;
    const copied = copySteps(
      [definition(B, 5, 'action', { text: `{{step.${A}.body}} and {{step.${B}.x}}` }), definition(A, 2, 'trigger')],
      fresh,
    );
    expect(copied.map((s) => [s.id, s.position, s.type])).toEqual([
      ['new-1', 1, 'trigger'],
      ['new-2', 2, 'action'],
    ]);
    expect(copied[1]?.parameters).toEqual({ text: '{{step.new-1.body}} and {{step.new-2.x}}' });
  });

  it('copies a tree depth-first: parents and references in branch conditions follow the copies', () => {
    let n = 0;
    const fresh = () => `new-${++n}`;
    const copied = copySteps(
      [
        { ...definition('inside', 9, 'action'), parentStepId: 'loop' },
        { ...definition('after', 3, 'action') },
        { ...definition('loop', 2, 'action'), structuralType: 'loop', appKey: 'loop', key: 'loopOverItems' },
        {
          ...definition('branch', 4, 'action'),
          structuralType: 'branch',
          parentStepId: 'ghost',
          branchConditions: [{ and: [{ key: '{{step.t.x}}', operator: 'equal', value: '{{step.other.y}}' }] }],
        },
        definition('t', 1, 'trigger'),
      ],
      fresh,
    );
    expect(copied.map((s) => [s.id, s.position, s.parentStepId])).toEqual([
      ['new-1', 1, null],
      ['new-2', 2, null],
      ['new-3', 3, 'new-2'],
      ['new-4', 4, null],
      ['new-5', 5, null],
    ]);
    expect(copied[4]?.branchConditions).toEqual([
      { and: [{ key: '{{step.new-1.x}}', operator: 'equal', value: '{{step.other.y}}' }] },
    ]);
  });
});
