import { describe, expect, it } from 'vitest';
import { documentSteps, type ExportDocument, exportDocument } from './export-document.js';
import type { StructuralType } from './flow.js';
import { copySteps, emptyStep, type PlacedDefinition } from './flow-rules.js';

/** A small seeded generator, so that a failing case can be replayed from its seed. */
const random = (seed: number) => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { int, pick };
};

const counter = (prefix: string) => {
  let n = 0;
  return () => `${prefix}-${++n}`;
};

/**
 * A flow of a trigger and 0-6 actions whose parameters (and branch conditions) refer to earlier
 * steps, some inside paths, branches and loops, stored out of order.
 */
const generatedSteps = (seed: number): PlacedDefinition[] => {
  const r = random(seed);
  const count = 1 + r.int(7);
  const ids = Array.from({ length: count }, (_, i) => `stored-${seed}-${i}`);
  const value = (index: number, depth: number): unknown => {
    const earlier = ids.slice(0, index);
    switch (r.int(depth > 2 ? 3 : 6)) {
      case 0:
        return r.int(1000);
      case 1:
        return earlier.length > 0 ? `{{step.${r.pick(earlier)}.output.${r.int(3)}}}` : 'no earlier step';
      case 2:
        return `text with {{step.unknown-id.x}} and ${r.pick(['a', 'b', 'c'])}`;
      case 3:
        return [value(index, depth + 1), value(index, depth + 1)];
      case 4:
        return { key: 'k', value: value(index, depth + 1) };
      default:
        return r.pick([true, false, null]);
    }
  };
  const containers: Array<{ id: string; structuralType: StructuralType }> = [];
  const steps = ids.map((id, index): PlacedDefinition => {
    const parent = index === 0 ? undefined : r.pick([undefined, undefined, ...containers]);
    const structuralType: StructuralType =
      parent?.structuralType === 'paths' ? 'branch' : index === 0 ? 'single' : r.pick(['single', 'paths', 'loop']);
    if (structuralType !== 'single') containers.push({ id, structuralType });
    const earlier = ids.slice(0, index);
    return {
      id,
      position: index * 3 + 1,
      type: index === 0 ? 'trigger' : 'action',
      appKey: r.pick([null, 'webhook', 'formatter', 'http-request']),
      key: r.pick([null, 'catchRawWebhook', 'text', 'customRequest']),
      name: r.pick([null, `Step ${index}`]),
      connectionId: r.pick([null, 'conn-1']),
      parameters: Object.fromEntries(Array.from({ length: r.int(4) }, (_, p) => [`p${p}`, value(index, 0)])),
      structuralType,
      parentStepId: parent?.id ?? null,
      branchConditions:
        structuralType !== 'branch'
          ? null
          : r.pick([[], [{ and: [{ key: `{{step.${r.pick(earlier)}.x}}`, operator: 'equal', value: '1' }] }]]),
    };
  });
  return steps.reverse();
};

/** The document with every id it assigns replaced by its order, so that only ids may differ. */
const upToIds = (document: ExportDocument) => {
  const ids = [document.id, ...document.steps.map((s) => s.id)].map((id, i) => [id, `#${i}`] as const);
  let text = JSON.stringify(document);
  // Longest first, so that `export-1` does not eat into `export-12`.
  for (const [id, name] of ids.sort((a, b) => b[0].length - a[0].length)) text = text.replaceAll(id, name);
  return JSON.parse(text);
};

const webhookWhen = (step: PlacedDefinition) =>
  step.appKey === 'webhook' && step.type === 'trigger' ? ('webhook' as const) : undefined;

describe('export document', () => {
  it('lists the steps by position under fresh ids, without connections, with webhook paths', () => {
    const doc = exportDocument(
      'Orders',
      [
        {
          ...emptyStep('stored-2', 2, 'action'),
          appKey: 'formatter',
          key: 'text',
          connectionId: 'conn-1',
          parameters: { input: '{{step.stored-1.body.name}}' },
        },
        {
          ...emptyStep('stored-1', 1, 'trigger'),
          appKey: 'webhook',
          key: 'catchRawWebhook',
          name: 'Incoming',
        },
      ],
      counter('export'),
      webhookWhen,
    );
    expect(doc).toEqual({
      id: 'export-1',
      name: 'Orders',
      steps: [
        {
          id: 'export-2',
          key: 'catchRawWebhook',
          name: 'Incoming',
          appKey: 'webhook',
          type: 'trigger',
          parameters: {},
          position: 1,
          webhookPath: '/webhooks/flows/export-1',
          structuralType: 'single',
          parentStepId: null,
          branchConditions: null,
        },
        {
          id: 'export-3',
          key: 'text',
          name: null,
          appKey: 'formatter',
          type: 'action',
          parameters: { input: '{{step.export-2.body.name}}' },
          position: 2,
          webhookPath: null,
          structuralType: 'single',
          parentStepId: null,
          branchConditions: null,
        },
      ],
    });
    expect(JSON.stringify(doc)).not.toContain('stored-');
    expect(JSON.stringify(doc)).not.toContain('conn-1');
  });

  it('carries the tree: parents and references in conditions follow the fresh ids, steps depth-first', () => {
    const doc = exportDocument(
      'Tree',
      [
        { ...emptyStep('s-inside', 5, 'action'), parentStepId: 's-branch' },
        {
          ...emptyStep('s-branch', 4, 'action'),
          structuralType: 'branch',
          appKey: 'branches',
          key: 'executeBranch',
          parentStepId: 's-paths',
          branchConditions: [{ and: [{ key: '{{step.s-trigger.body.kind}}', operator: 'equal', value: 'a' }] }],
        },
        { ...emptyStep('s-after', 3, 'action') },
        { ...emptyStep('s-paths', 2, 'action'), structuralType: 'paths', appKey: 'branches', key: 'execute' },
        emptyStep('s-trigger', 1, 'trigger'),
      ],
      counter('export'),
      webhookWhen,
    );
    expect(doc.steps.map((s) => [s.id, s.position, s.structuralType, s.parentStepId])).toEqual([
      ['export-2', 1, 'single', null],
      ['export-3', 2, 'paths', null],
      ['export-4', 3, 'branch', 'export-3'],
      ['export-5', 4, 'single', 'export-4'],
      ['export-6', 5, 'single', null],
    ]);
    expect(doc.steps[2]?.branchConditions).toEqual([
      { and: [{ key: '{{step.export-2.body.kind}}', operator: 'equal', value: 'a' }] },
    ]);
    const older = { ...doc, steps: doc.steps.map(({ structuralType, parentStepId, branchConditions, ...s }) => s) };
    expect(documentSteps(older)[1]).toMatchObject({
      structuralType: 'single',
      parentStepId: null,
      branchConditions: null,
    });
  });

  it('export → import → export gives the same document up to ids, for 300 generated flows', () => {
    for (let seed = 0; seed < 300; seed++) {
      const first = exportDocument(`Flow ${seed}`, generatedSteps(seed), counter('export'), webhookWhen);
      const imported = copySteps(documentSteps(first), counter('import'));
      const second = exportDocument(first.name, imported, counter('again'), webhookWhen);
      expect(JSON.stringify(second), `seed ${seed}`).not.toMatch(/import-|export-|stored-/);
      expect(upToIds(second), `seed ${seed}`).toEqual(upToIds(first));
      expect(second.steps.map((s) => s.position)).toEqual(second.steps.map((_, i) => i + 1));
    }
  });
});
