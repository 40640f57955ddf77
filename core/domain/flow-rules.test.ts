import { describe, expect, it } from 'vitest';
import type { StepType } from './flow.js';
import {
  closeGap,
  containsReference,
  copySteps,
  emptyStep,
  type PlacedDefinition,
  placeAfter,
  publishRefusal,
  rewriteReferences,
  shapeRefusal,
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

const steps = (...placed: Array<[string, number]>) => placed.map(([id, position]) => ({ id, position }));

describe('placeAfter and closeGap', () => {
  it('puts a new step right after the given one and shifts the later ones', () => {
    expect(placeAfter(steps(['t', 1], ['a', 2], ['b', 3]), 'a', 'new')).toEqual([
      { id: 'new', position: 3 },
      { id: 'b', position: 4 },
    ]);
    expect(placeAfter(steps(['t', 1], ['a', 2]), 'a', 'new')).toEqual([{ id: 'new', position: 3 }]);
    expect(placeAfter(steps(['t', 1], ['a', 2]), 't', 'new')).toEqual([
      { id: 'new', position: 2 },
      { id: 'a', position: 3 },
    ]);
  });

  it('answers null for a step that is not in the flow', () => {
    expect(placeAfter(steps(['t', 1]), 'elsewhere', 'new')).toBeNull();
  });

  it('closes the gap a removed step leaves', () => {
    expect(closeGap(steps(['t', 1], ['a', 2], ['b', 3], ['c', 4]), 'a')).toEqual([
      { id: 'b', position: 2 },
      { id: 'c', position: 3 },
    ]);
    expect(closeGap(steps(['t', 1], ['a', 2], ['b', 3]), 'b')).toEqual([]);
  });

  it('repairs positions that had gaps or came out of order', () => {
    expect(closeGap(steps(['b', 7], ['t', 1], ['a', 4]), 'none')).toEqual([
      { id: 'a', position: 2 },
      { id: 'b', position: 3 },
    ]);
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
});

describe('shapeRefusal', () => {
  it('accepts a trigger followed by actions, in whatever order they are listed', () => {
    expect(shapeRefusal([definition('b', 2, 'action'), definition('a', 1, 'trigger')])).toBeNull();
  });

  it('refuses a flow that does not start with a trigger, or has one later, or none at all', () => {
    const first = shapeRefusal([definition('a', 1, 'action'), definition('b', 2, 'trigger')]);
    expect(first).toEqual({ code: 'input.invalid', fields: { steps: ['The first step must be a trigger.'] } });
    expect(shapeRefusal([definition('a', 1, 'trigger'), definition('b', 2, 'trigger')])?.code).toBe('input.invalid');
    expect(shapeRefusal([])?.code).toBe('input.invalid');
  });

  it('refuses two steps with one id', () => {
    expect(shapeRefusal([definition('a', 1, 'trigger'), definition('a', 2, 'action')])).toEqual({
      code: 'input.invalid',
      fields: { steps: ['Each step must have its own id.'] },
    });
  });
});
