import { builtInApps } from '../../adapters/apps/index.js';
import {
  type App,
  boolean,
  defineAction,
  defineApp,
  defineTrigger,
  dynamicDropdown,
  fieldsAuth,
  noAuth,
  number,
  text,
} from '../../adapters/apps/sdk/index.js';
import { TEST_ICON } from './test-icon.js';

/** A webhook app of the tests' own, with the trigger and arguments of API.md §11's `webhook`. */
export const hooksApp = defineApp({
  key: 'test-webhook',
  name: 'Test webhook',
  description: 'Receives calls; needs no connection.',
  icon: TEST_ICON,
  primaryColor: '#0059f7',
  version: 3,
  auth: noAuth(),
  triggers: [
    defineTrigger({
      key: 'catchRawWebhook',
      name: 'Catch raw webhook',
      description: 'Fires on every call.',
      type: 'webhook',
      arguments: { workSynchronously: boolean({ label: 'Wait for the flow', default: false }) },
      run: async (ctx) => (ctx.webhook ? [{ data: ctx.webhook }] : []),
    }),
  ],
  actions: [
    defineAction({
      key: 'respondWith',
      name: 'Respond with',
      description: 'Answers the webhook call.',
      arguments: {
        statusCode: number({ label: 'Status', required: true, integer: true, min: 100, max: 599 }),
        body: text({ label: 'Body', acceptsVariables: true }),
      },
      run: async (ctx) => ctx.parameters,
    }),
  ],
});

/** An app with a connection, dynamic data and dynamic fields that never leave the process. */
export const notesApp = defineApp({
  key: 'test-notes',
  name: 'Test notes',
  description: 'Keeps notes on shelves.',
  icon: TEST_ICON,
  primaryColor: '#123456',
  version: 2,
  auth: fieldsAuth({
    fields: {
      owner: text({ label: 'Owner', required: true }),
      apiKey: text({ label: 'API key', required: true, secret: true }),
    },
    async verify(ctx) {
      if (ctx.auth.data.apiKey !== 'good-key') throw new Error('The key was refused.');
      return { screenName: ctx.auth.data.owner };
    },
  }),
  triggers: [],
  actions: [
    defineAction({
      key: 'addNote',
      name: 'Add a note',
      description: 'Puts a note on a shelf.',
      arguments: {
        title: text({ label: 'Title', required: true, acceptsVariables: true }),
        copies: number({ label: 'Copies', integer: true, min: 1, acceptsVariables: true }),
        shelf: dynamicDropdown({ label: 'Shelf', dynamicData: 'listShelves' }),
      },
      run: async (ctx) => ctx.parameters,
    }),
    defineAction({
      key: 'custom',
      name: 'Custom note',
      description: 'A note with fields that depend on its kind.',
      dynamicFieldsKey: 'noteFields',
      arguments: { kind: text({ label: 'Kind', required: true }) },
      run: async (ctx) => ctx.parameters,
    }),
  ],
  dynamicData: {
    async listShelves(ctx) {
      if (ctx.parameters.fail === true) throw new Error(`no shelves for key ${String(ctx.auth.data.apiKey)}`);
      const owner = String(ctx.auth.data.owner ?? 'nobody');
      return [
        { name: `${owner}'s top shelf`, value: 'top' },
        { name: `${owner}'s bottom shelf`, value: 'bottom' },
      ];
    },
  },
  dynamicFields: {
    noteFields: async (ctx) => [text({ label: `Colour of a ${String(ctx.parameters.kind)}` }).describe('colour')],
  },
});

/** The built-in apps and the tests' own: what flow tests run with. */
export const FLOW_TEST_APPS: readonly App[] = [...builtInApps, hooksApp, notesApp];

export const NOTES_CREDENTIALS = { owner: 'Nora', apiKey: 'good-key' } as const;
