import {
  defineAction,
  defineApp,
  defineTrigger,
  dropdown,
  fieldsAuth,
  httpUrl,
  noAuth,
  number,
  text,
} from '../../../adapters/apps/sdk/index.js';
import { TEST_ICON } from '../../support/test-icon.js';

/** An API-key app talking to a server the test starts: it exercises every part of the SDK. */
const exampleAuth = fieldsAuth({
  fields: {
    serverUrl: text({ label: 'Server URL', required: true, check: httpUrl }),
    apiKey: text({ label: 'API key', required: true, secret: true }),
    region: text({ label: 'Region', default: 'eu' }),
  },
  headers: (data) => ({ 'x-api-key': data.apiKey }),
  async verify(ctx) {
    if (ctx.auth.data.apiKey.startsWith('boom')) throw new Error(`key ${ctx.auth.data.apiKey} was refused`);
    const { data } = await ctx.http.request<{ name: string }>({ path: '/me' });
    await ctx.auth.set({ verifiedRegion: ctx.auth.data.region });
    return { screenName: data.name };
  },
});

const lookup = defineAction({
  key: 'lookup',
  name: 'Look up a thing',
  description: 'Reads a thing by id.',
  arguments: {
    id: number({ label: 'Id', required: true, integer: true }),
    format: dropdown({
      label: 'Format',
      default: 'short',
      options: [
        { label: 'Short', value: 'short' },
        { label: 'Long', value: 'long' },
      ],
    }),
    target: text({ label: 'Absolute URL to read instead' }),
  },
  async run(ctx) {
    ctx.log.info({ id: ctx.parameters.id }, 'looking up');
    const previous = await ctx.store.get('count');
    await ctx.store.set('count', (typeof previous === 'number' ? previous : 0) + 1);
    const { data } = ctx.parameters.target
      ? await ctx.http.request({ url: ctx.parameters.target })
      : await ctx.http.request({ path: `/things/${ctx.parameters.id}`, query: { format: ctx.parameters.format } });
    return {
      thing: data,
      execution: ctx.execution,
      aborted: ctx.signal.aborted,
      count: await ctx.store.get('count'),
    };
  },
});

const newEvent = defineTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Fires when the server calls the webhook.',
  type: 'webhook',
  arguments: {},
  async run(ctx) {
    return ctx.webhook ? [{ data: ctx.webhook.body }] : [];
  },
});

export const exampleApp = defineApp({
  key: 'example-api',
  name: 'Example API',
  description: 'A test app with an API key.',
  icon: TEST_ICON,
  primaryColor: '#123456',
  categories: ['productivity'],
  version: 1,
  auth: exampleAuth,
  triggers: [newEvent],
  actions: [
    lookup,
    defineAction({
      key: 'custom',
      name: 'Custom fields',
      description: 'Echoes its parameters, extra fields included.',
      dynamicFieldsKey: 'extraFields',
      arguments: { kind: text({ label: 'Kind', required: true }) },
      run: async (ctx) => ctx.parameters,
    }),
  ],
  dynamicFields: {
    extraFields: async (ctx) => [text({ label: `Field for ${String(ctx.parameters.kind)}` }).describe('extra')],
  },
  http: { connectionBaseUrl: (auth) => (typeof auth.data.serverUrl === 'string' ? auth.data.serverUrl : undefined) },
});

/** An app without connections. */
export const plainApp = defineApp({
  key: 'plain',
  name: 'A plain app',
  description: 'Needs no connection.',
  icon: TEST_ICON,
  primaryColor: '#abcdef',
  categories: ['utilities'],
  version: 2,
  auth: noAuth(),
  triggers: [],
  actions: [
    defineAction({
      key: 'fetch',
      name: 'Fetch',
      description: 'Reads a URL.',
      arguments: { url: text({ label: 'URL', required: true }) },
      run: async (ctx) => (await ctx.http.request({ url: ctx.parameters.url })).data,
    }),
  ],
});
