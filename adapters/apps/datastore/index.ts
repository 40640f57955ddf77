import { datastoreKey as storeKey } from '../../../core/domain/datastore.js';
import { defineAction, defineApp, noAuth, text } from '../sdk/index.js';
import { icon } from './icon.js';

const key = text({ label: 'Key', required: true, acceptsVariables: true });

const getValue = defineAction({
  key: 'getValue',
  name: 'Get value',
  description: 'Reads a value this flow stored under a key (null when there is none).',
  arguments: { key },
  async run(ctx) {
    const value = await ctx.store.get(storeKey(ctx.parameters.key));
    return { key: ctx.parameters.key, value: value ?? null };
  },
});

const setValue = defineAction({
  key: 'setValue',
  name: 'Set value',
  description: 'Stores a value under a key, for later runs of this flow.',
  arguments: { key, value: text({ label: 'Value', acceptsVariables: true }) },
  async run(ctx) {
    const value = ctx.parameters.value ?? null;
    await ctx.store.set(storeKey(ctx.parameters.key), value);
    return { key: ctx.parameters.key, value };
  },
});

export const datastore = defineApp({
  key: 'datastore',
  name: 'Datastore',
  description: 'Keep values between runs of a flow.',
  icon,
  primaryColor: '#7c3aed',
  categories: ['data-and-databases'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [getValue, setValue],
});
