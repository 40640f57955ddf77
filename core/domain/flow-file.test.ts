import { describe, expect, it } from 'vitest';
import {
  type FileStep,
  FLOW_FILE_FORMAT,
  type FlowFile,
  flowFileName,
  flowFileOf,
  flowFileRefusal,
  keyOfFileName,
  type NamedStep,
  newFileKey,
  placeFileSteps,
  renderFlowFile,
  slugOf,
} from './flow-file.js';

const TRIGGER = '7d1c2a6e-0000-4000-8000-000000000001';
const MAIL = '7d1c2a6e-0000-4000-8000-000000000002';
const UPPER = '7d1c2a6e-0000-4000-8000-000000000003';

const TOP = { structuralType: 'single', parentStepId: null, branchConditions: null } as const;

/** A draft as stored: out of order, parameters with keys in any order, references by real ids. */
const stored: NamedStep[] = [
  {
    id: MAIL,
    type: 'action',
    appKey: 'smtp',
    key: 'sendEmail',
    name: 'Mail it',
    position: 3,
    parameters: { to: `{{step.${TRIGGER}.body.email}}`, subject: `Re: {{step.${UPPER}.output}}`, body: 'Hi' },
    continueOnFailure: true,
    connection: { appKey: 'smtp', name: 'orders@example.com' },
    ...TOP,
  },
  {
    id: TRIGGER,
    type: 'trigger',
    appKey: 'webhook',
    key: 'catchRawWebhook',
    name: null,
    position: 1,
    parameters: { workSynchronously: false },
    continueOnFailure: false,
    connection: null,
    ...TOP,
  },
  {
    id: UPPER,
    type: 'action',
    appKey: 'formatter',
    key: 'text',
    name: 'Shout',
    position: 2,
    parameters: {
      transform: 'uppercase',
      input: `{{step.${TRIGGER}.body.subject}}`,
      nested: { z: 1, a: [{ y: 2, b: 3 }] },
    },
    continueOnFailure: false,
    connection: null,
    ...TOP,
  },
];

const flow = { key: 'orders-to-mail', name: 'Orders to mail', active: true, folder: 'Sales' };

describe('flowFileOf', () => {
  it('orders the steps, names them step1..n and points references at those names', () => {
    const file = flowFileOf(flow, stored);
    expect(file).toMatchObject({ format: FLOW_FILE_FORMAT, ...flow });
    expect(file.steps.map((s) => s.id)).toEqual(['step1', 'step2', 'step3']);
    expect(file.steps.map((s) => s.key)).toEqual(['catchRawWebhook', 'text', 'sendEmail']);
    expect(file.steps[1]?.parameters.input).toBe('{{step.step1.body.subject}}');
    expect(file.steps[2]?.parameters).toEqual({
      to: '{{step.step1.body.email}}',
      subject: 'Re: {{step.step2.output}}',
      body: 'Hi',
    });
    expect(file.steps[2]).toMatchObject({
      continueOnFailure: true,
      connection: { appKey: 'smtp', name: 'orders@example.com' },
    });
  });

  it('holds no id, position, status or timestamp of the instance', () => {
    const text = renderFlowFile(flowFileOf(flow, stored));
    for (const id of [TRIGGER, MAIL, UPPER]) expect(text).not.toContain(id);
    expect(Object.keys(JSON.parse(text)).sort()).toEqual(['active', 'folder', 'format', 'key', 'name', 'steps']);
    expect(Object.keys(JSON.parse(text).steps[0]).sort()).toEqual([
      'appKey',
      'connection',
      'continueOnFailure',
      'id',
      'key',
      'name',
      'parameters',
      'type',
    ]);
  });
});

describe('renderFlowFile', () => {
  it('sorts keys at every depth, indents two spaces and ends with a newline', () => {
    const text = renderFlowFile(flowFileOf(flow, stored));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "active": true,\n  "folder": "Sales",\n  "format": "conveyor-flow/1",\n')).toBe(true);
    expect(text).toContain(
      [
        '      "parameters": {',
        '        "input": "{{step.step1.body.subject}}",',
        '        "nested": {',
        '          "a": [',
        '            {',
        '              "b": 3,',
        '              "y": 2',
        '            }',
        '          ],',
        '          "z": 1',
        '        },',
        '        "transform": "uppercase"',
        '      },',
      ].join('\n'),
    );
  });

  it('gives the same bytes whatever order the keys were stored in (jsonb reorders them)', () => {
    const shuffled = stored.map((step) => ({
      ...step,
      parameters: Object.fromEntries(Object.entries(step.parameters).reverse()),
    }));
    expect(renderFlowFile(flowFileOf(flow, shuffled))).toBe(renderFlowFile(flowFileOf(flow, stored)));
  });
});

describe('placeFileSteps', () => {
  it('puts real ids in place of file ids, references included, positions 1..n', () => {
    const file = flowFileOf(flow, stored);
    const ids = ['real-a', 'real-b', 'real-c'];
    const placed = placeFileSteps(file, (index) => ids[index] ?? 'none');
    expect(placed.map((s) => [s.id, s.position])).toEqual([
      ['real-a', 1],
      ['real-b', 2],
      ['real-c', 3],
    ]);
    expect(placed[2]?.parameters).toMatchObject({
      to: '{{step.real-a.body.email}}',
      subject: 'Re: {{step.real-b.output}}',
    });
  });

  it('round-trips: a file placed under the stored ids is the stored draft, and renders the same', () => {
    const file = flowFileOf(flow, stored);
    const byPosition = [TRIGGER, UPPER, MAIL];
    const placed = placeFileSteps(file, (index) => byPosition[index] ?? 'none');
    for (const step of placed) {
      const original = stored.find((s) => s.id === step.id);
      expect(step).toEqual({ ...original });
    }
    expect(renderFlowFile(flowFileOf(flow, placed))).toBe(renderFlowFile(file));
  });

  it('takes any distinct ids a person wrote, in the order of the file', () => {
    const file: FlowFile = {
      ...flowFileOf(flow, stored),
      steps: flowFileOf(flow, stored).steps.map((step, index) => ({
        ...step,
        id: ['start', 'shout', 'mail'][index] as string,
        parameters: JSON.parse(
          JSON.stringify(step.parameters)
            .replaceAll('step.step1.', 'step.start.')
            .replaceAll('step.step2.', 'step.shout.'),
        ),
      })),
    };
    const placed = placeFileSteps(file, (index) => `id-${index}`);
    expect(placed[2]?.parameters).toMatchObject({
      to: '{{step.id-0.body.email}}',
      subject: 'Re: {{step.id-1.output}}',
    });
    expect(renderFlowFile(flowFileOf(flow, placed))).toBe(renderFlowFile(flowFileOf(flow, stored)));
  });
});

describe('keys', () => {
  it('makes a key of a name', () => {
    expect(slugOf('Orders → Mail (EU)')).toBe('orders-mail-eu');
    expect(slugOf('Crème brûlée')).toBe('creme-brulee');
    expect(slugOf('  ✨ ')).toBe('flow');
    expect(slugOf('x'.repeat(200))).toHaveLength(60);
  });

  it('tells flows of one name apart', () => {
    expect(newFileKey('Orders', new Set())).toBe('orders');
    expect(newFileKey('Orders', new Set(['orders', 'orders-2']))).toBe('orders-3');
  });

  it('names the file after the key, and reads the key back', () => {
    expect(flowFileName('orders')).toBe('orders.flow.json');
    expect(keyOfFileName('orders.flow.json')).toBe('orders');
    expect(keyOfFileName('.flow.json')).toBeNull();
    expect(keyOfFileName('orders.json')).toBeNull();
  });
});

describe('flowFileRefusal', () => {
  const file = flowFileOf(flow, stored);
  const fields = (fileName: string, f: FlowFile) => {
    const refusal = flowFileRefusal(fileName, f);
    return refusal?.code === 'input.invalid' ? refusal.fields : null;
  };

  it('accepts an exported file', () => {
    expect(flowFileRefusal('orders-to-mail.flow.json', file)).toBeNull();
  });

  it('refuses a key that is not the file name, or not a key', () => {
    expect(fields('other.flow.json', file)).toEqual({ key: ["must be the file's name without .flow.json."] });
    expect(Object.keys(fields('Bad Key.flow.json', { ...file, key: 'Bad Key' }) ?? {})).toEqual(['key']);
  });

  it('refuses steps out of shape: no trigger first, two ids alike, an id references cannot hold', () => {
    const [trigger, shout, mail] = file.steps as [
      FlowFile['steps'][number],
      FlowFile['steps'][number],
      FlowFile['steps'][number],
    ];
    expect(fields('orders-to-mail.flow.json', { ...file, steps: [shout, trigger, mail] })).toEqual({
      steps: ['The first step must be a trigger.'],
    });
    expect(fields('orders-to-mail.flow.json', { ...file, steps: [trigger, { ...shout, id: 'step1' }, mail] })).toEqual({
      steps: ['Each step must have its own id.'],
    });
    expect(fields('orders-to-mail.flow.json', { ...file, steps: [trigger, { ...shout, id: 'step.2' }, mail] })).toEqual(
      {
        'steps.1.id': ['must be letters, digits, - and _.'],
      },
    );
  });

  it("refuses a connection of another app than the step's", () => {
    const steps = file.steps.map((step, index) =>
      index === 2 ? { ...step, connection: { appKey: 'github', name: 'me' } } : step,
    );
    expect(fields('orders-to-mail.flow.json', { ...file, steps })).toEqual({
      'steps.2.connection.appKey': ["must be the step's appKey."],
    });
  });
});

describe('flow files of trees', () => {
  const T = 'aa000000-0000-4000-8000-000000000001';
  const PATHS = 'aa000000-0000-4000-8000-000000000002';
  const BRANCH = 'aa000000-0000-4000-8000-000000000003';
  const INSIDE = 'aa000000-0000-4000-8000-000000000004';
  const FALLBACK = 'aa000000-0000-4000-8000-000000000005';
  const base = { appKey: null, key: null, name: null, parameters: {}, continueOnFailure: false, connection: null };
  const tree: NamedStep[] = [
    { ...base, ...TOP, id: INSIDE, type: 'action', position: 4, parentStepId: BRANCH },
    {
      ...base,
      ...TOP,
      id: FALLBACK,
      type: 'action',
      position: 5,
      appKey: 'branches',
      key: 'executeBranch',
      structuralType: 'branch',
      parentStepId: PATHS,
      branchConditions: [],
    },
    {
      ...base,
      ...TOP,
      id: BRANCH,
      type: 'action',
      position: 3,
      appKey: 'branches',
      key: 'executeBranch',
      structuralType: 'branch',
      parentStepId: PATHS,
      branchConditions: [{ and: [{ key: `{{step.${T}.body.kind}}`, operator: 'equal', value: 'order' }] }],
    },
    {
      ...base,
      ...TOP,
      id: PATHS,
      type: 'action',
      position: 2,
      appKey: 'branches',
      key: 'execute',
      parameters: { mode: 'first' },
      structuralType: 'paths',
    },
    { ...base, ...TOP, id: T, type: 'trigger', position: 1, appKey: 'webhook', key: 'catchRawWebhook' },
  ];

  it('writes where each step sits only when it is not a top-level single step, under file ids', () => {
    const file = flowFileOf(flow, tree);
    expect(file.steps.map((s) => [s.id, s.structuralType, s.parentStepId])).toEqual([
      ['step1', undefined, undefined],
      ['step2', 'paths', undefined],
      ['step3', 'branch', 'step2'],
      ['step4', undefined, 'step3'],
      ['step5', 'branch', 'step2'],
    ]);
    expect(file.steps[2]?.branchConditions).toEqual([
      { and: [{ key: '{{step.step1.body.kind}}', operator: 'equal', value: 'order' }] },
    ]);
    expect(file.steps[4]?.branchConditions).toEqual([]);
    expect(Object.keys(file.steps[0] ?? {})).not.toContain('branchConditions');
    expect(flowFileRefusal('orders-to-mail.flow.json', file)).toBeNull();
  });

  it('round-trips a tree through its file under the stored ids', () => {
    const file = flowFileOf(flow, tree);
    const byPlace = [T, PATHS, BRANCH, INSIDE, FALLBACK];
    const placed = placeFileSteps(file, (index) => byPlace[index] ?? 'none');
    for (const step of placed) expect(step).toEqual(tree.find((s) => s.id === step.id));
    expect(renderFlowFile(flowFileOf(flow, placed))).toBe(renderFlowFile(file));
  });

  it("refuses a tree out of shape, with Automatisch's error type, and steps not listed depth-first", () => {
    const file = flowFileOf(flow, tree);
    const [trigger, paths, branch, inside, fallback] = file.steps as FlowFile['steps'][number][];
    const loose = flowFileRefusal('orders-to-mail.flow.json', {
      ...file,
      steps: [trigger, paths, { ...(branch as FileStep), parentStepId: undefined }, inside, fallback] as FileStep[],
    });
    expect(loose).toEqual({
      code: 'input.invalid',
      fields: { 'steps.2.parentStepId': ['must be a paths step: a branch sits in a paths step.'] },
      type: 'invalidParentStepStructuralTypeError',
    });
    const twoFallbacks = flowFileRefusal('orders-to-mail.flow.json', {
      ...file,
      steps: [trigger, paths, { ...(branch as FileStep), branchConditions: [] }, inside, fallback] as FileStep[],
    });
    expect(twoFallbacks).toMatchObject({ type: 'invalidBranchConditionsError' });
    expect(
      flowFileRefusal('orders-to-mail.flow.json', {
        ...file,
        steps: [trigger, paths, fallback, branch, inside] as FileStep[],
      }),
    ).toBeNull();
    expect(
      flowFileRefusal('orders-to-mail.flow.json', {
        ...file,
        steps: [trigger, paths, branch, fallback, inside] as FileStep[],
      }),
    ).toEqual({
      code: 'input.invalid',
      fields: { steps: ['must list each step right after the step it sits in (and after its earlier siblings).'] },
    });
  });
});
