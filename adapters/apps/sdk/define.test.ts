import { describe, expect, it } from 'vitest';
import { describeArguments } from './arguments.js';
import { defineAction, defineApp, defineTrigger } from './define.js';
import { dynamicDropdown, noAuth, text } from './index.js';

const base = {
  name: 'Shelves',
  description: 'Keeps things on shelves.',
  icon: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  primaryColor: '#123456',
  version: 1,
  auth: noAuth(),
  triggers: [],
} as const;

const listShelves = async () => [{ name: 'Top', value: 'top' }];
const shelfFields = async () => describeArguments({ colour: text({ label: 'Colour' }) });

const putOnShelf = defineAction({
  key: 'putOnShelf',
  name: 'Put on a shelf',
  description: 'Puts a thing on a shelf.',
  dynamicFieldsKey: 'shelfFields',
  arguments: { shelf: dynamicDropdown({ label: 'Shelf', required: true, dynamicData: 'listShelves' }) },
  run: async (ctx) => ctx.parameters.shelf,
});

const onShelfNope = defineAction({
  key: 'onShelfNope',
  name: 'Put on a shelf',
  description: 'Names dynamic data the app does not have.',
  arguments: { shelf: dynamicDropdown({ label: 'Shelf', dynamicData: 'listNope' }) },
  run: async () => null,
});

const withNopeFields = defineTrigger({
  key: 'withNopeFields',
  name: 'Shelf changed',
  description: 'Names dynamic fields the app does not have.',
  type: 'webhook',
  dynamicFieldsKey: 'nopeFields',
  arguments: {},
  run: async () => [],
});

describe('dynamic data and dynamic fields keys', () => {
  it('are those of the app: a step naming another is refused at compile time', () => {
    const app = defineApp({
      ...base,
      key: 'shelves',
      actions: [putOnShelf],
      dynamicData: { listShelves },
      dynamicFields: { shelfFields },
    });
    defineApp({
      ...base,
      key: 'shelves-nope',
      // @ts-expect-error: `listNope` is not among the app's dynamic data.
      actions: [putOnShelf, onShelfNope],
      dynamicData: { listShelves },
      dynamicFields: { shelfFields },
    });
    defineApp({
      ...base,
      key: 'shelves-no-fields',
      // @ts-expect-error: `shelfFields` is not among the app's dynamic fields (it has none).
      actions: [putOnShelf],
      dynamicData: { listShelves },
    });
    defineApp({
      ...base,
      key: 'shelves-nope-fields',
      // @ts-expect-error: `nopeFields` is not among the app's dynamic fields.
      triggers: [withNopeFields],
      actions: [],
      dynamicFields: { shelfFields },
    });
    // The keys stay plain text at run time, where requests name them.
    expect(Object.keys(app.dynamicData)).toEqual(['listShelves']);
    expect(app.manifest.actions[0]).toMatchObject({
      dynamicFieldsKey: 'shelfFields',
      arguments: [{ key: 'shelf', dynamicData: { key: 'listShelves', dependsOn: [] } }],
    });
  });
});

describe('instant triggers', () => {
  const hooks = {
    registerHook: async () => ({ id: 'hook-1' }),
    unregisterHook: async () => {},
  };
  const trigger = { key: 'shelfChanged', name: 'Shelf changed', description: 'A shelf changed.', arguments: {} };

  it('a webhook trigger defines registerHook and unregisterHook together', () => {
    const defined = defineTrigger({ ...trigger, type: 'webhook', run: async () => [], ...hooks });
    expect(defined.registerHook).toBe(hooks.registerHook);
    expect(defined.unregisterHook).toBe(hooks.unregisterHook);
    expect(defined.manifest.type).toBe('webhook');
    expect(() =>
      defineTrigger({ ...trigger, type: 'webhook', run: async () => [], registerHook: hooks.registerHook }),
    ).toThrow('registerHook() and unregisterHook() go together');
    expect(() =>
      defineTrigger({ ...trigger, type: 'webhook', run: async () => [], unregisterHook: hooks.unregisterHook }),
    ).toThrow('registerHook() and unregisterHook() go together');
  });

  it('no other kind of trigger registers a hook', () => {
    expect(() => defineTrigger({ ...trigger, type: 'polling', run: async () => [], ...hooks })).toThrow(
      'only a webhook trigger registers a hook',
    );
    expect(() => defineTrigger({ ...trigger, run: async () => [], ...hooks })).toThrow(
      'only a webhook trigger registers a hook',
    );
  });
});
