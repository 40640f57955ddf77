import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { overrideVariable, rebase } from '../../adapters/apps/endpoint-overrides.js';
import {
  basicHeader,
  bearerHeader,
  type DraftContext,
  defineApp,
  fieldsAuth,
  nextLink,
  number,
  paginate,
  restAction,
  segment,
  text,
} from '../../adapters/apps/sdk/index.js';
import { ConfigError, loadConfig } from '../../composition/config.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { TEST_ICON } from '../support/test-icon.js';

const NOTES = Array.from({ length: 7 }, (_, i) => ({ id: `n${i + 1}`, title: `Note ${i + 1}` }));

/** A vendor with each kind of pagination over the same notes, and an API key in the query. */
const startNotesVendor = () =>
  startFakeVendor({
    authorize: (req) =>
      req.query.key === 'k3y' || req.headers.authorization === basicHeader('ann', 'pw:1').authorization,
    routes: {
      'GET /v1/me': () => ({ name: 'Ann' }),
      'GET /v1/cursor': (req) => {
        const start = Number(req.query.cursor ?? 0);
        const next = start + 3 < NOTES.length ? String(start + 3) : null;
        return { items: NOTES.slice(start, start + 3), next_cursor: next };
      },
      'GET /v1/pages': (req) => {
        const page = Number(req.query.page);
        return { data: NOTES.slice((page - 1) * 3, page * 3) };
      },
      'GET /v1/offset': (req) => NOTES.slice(Number(req.query.offset), Number(req.query.offset) + 3),
      'GET /v1/linked': (req, vendor) => {
        const start = Number(req.query.from ?? 0);
        const more = start + 3 < NOTES.length;
        return reply(200, NOTES.slice(start, start + 3), {
          ...(more && {
            link: `<${vendor.url}/v1/linked?from=${start + 3}>; rel="next", <${vendor.url}/v1/linked>; rel="first"`,
          }),
        });
      },
      'POST /v1/notes/:id/comments': (req) => reply(201, { id: 'c1', note: req.params.id, body: req.body }),
    },
  });

const notesAuth = fieldsAuth({
  fields: { apiKey: text({ label: 'API key', required: true, secret: true }) },
  query: (data) => ({ key: data.apiKey }),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ name: string }>({ path: '/v1/me' });
    return { screenName: data.name };
  },
});

const listAll = (kind: 'cursor' | 'page' | 'offset' | 'link') => async (ctx: DraftContext) => {
  const items = await paginate<{ id: string; title: string }>(
    ctx.http,
    { path: `/v1/${{ cursor: 'cursor', page: 'pages', offset: 'offset', link: 'linked' }[kind]}` },
    kind === 'cursor'
      ? { kind, items: (data) => data.items, next: (data) => data.next_cursor, param: 'cursor' }
      : kind === 'page'
        ? { kind, items: (data) => data.data, param: 'page', pageSize: 3 }
        : kind === 'offset'
          ? { kind, items: (data) => data, param: 'offset', pageSize: 3 }
          : { kind, items: (data) => data },
    { maxItems: Number(ctx.parameters.max ?? 1000) },
  );
  return items.map((note) => ({ name: note.title, value: note.id }));
};

const notes = defineApp({
  key: 'notes-kit',
  name: 'Notes',
  description: 'A vendor API written with the HTTP app kit.',
  icon: TEST_ICON,
  primaryColor: '#123456',
  categories: ['productivity'],
  version: 1,
  auth: notesAuth,
  triggers: [],
  actions: [
    restAction({
      key: 'addComment',
      name: 'Add comment',
      description: 'Comments on a note.',
      arguments: {
        note: text({ label: 'Note', required: true }),
        body: text({ label: 'Body', required: true }),
        max: number({ label: 'Unused' }),
      },
      idempotencyHeader: 'Idempotency-Key',
      request: (p) => ({ method: 'POST', path: `/v1/notes/${segment(p.note)}/comments`, body: { text: p.body } }),
      output: (data: { id: string; note: string }) => ({ commentId: data.id, noteId: data.note }),
    }),
  ],
  dynamicData: { cursor: listAll('cursor'), page: listAll('page'), offset: listAll('offset'), link: listAll('link') },
  http: { baseUrl: 'https://notes.invalid' },
});

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startNotesVendor();
});
afterAll(() => vendor.close());

const call = () => ({ auth: { apiKey: 'k3y' }, baseUrl: vendor.url });

describe('the HTTP app kit', () => {
  it('sends an API key in the query, to the base URL only, and never shows it', async () => {
    expect(await verifyAppAuth(notes, { apiKey: 'k3y' }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'Ann',
    });
    const refused = await verifyAppAuth(notes, { apiKey: 'wrong-key' }, { baseUrl: vendor.url });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('401') });
    expect(JSON.stringify(refused)).not.toContain('wrong-key');
  });

  it('runs a request template: path segments encoded, the idempotency key sent, the answer mapped', async () => {
    const output = await runAppAction(notes, 'addComment', { ...call(), parameters: { note: 'a/b', body: 'Hi' } });
    expect(output).toEqual({ commentId: 'c1', noteId: 'a/b' });
    const sent = vendor.calls('POST /v1/notes/:id/comments').at(-1);
    expect(sent?.path).toBe('/v1/notes/a%2Fb/comments');
    expect(sent?.body).toEqual({ text: 'Hi' });
    expect(sent?.headers['idempotency-key']).toBe('test-execution:notes-kit.addComment');
  });

  for (const kind of ['cursor', 'page', 'offset', 'link'] as const) {
    it(`collects every page of a ${kind}-paginated list, and stops at a limit`, async () => {
      const all = await loadAppDynamicData(notes, kind, call());
      expect(all.map((option) => option.value)).toEqual(NOTES.map((note) => note.id));
      const some = await loadAppDynamicData(notes, kind, { ...call(), parameters: { max: 4 } });
      expect(some.map((option) => option.value)).toEqual(['n1', 'n2', 'n3', 'n4']);
    });
  }

  it('reads the next page of a Link header whatever the order of its relations', () => {
    expect(nextLink('<https://a.test/?p=1>; rel="prev", <https://a.test/?p=3>; rel="next"')).toBe(
      'https://a.test/?p=3',
    );
    expect(nextLink('<https://a.test/?p=2>; rel="next last"')).toBe('https://a.test/?p=2');
    expect(nextLink('<https://a.test/?p=1>; rel="first"')).toBeNull();
    expect(nextLink(undefined)).toBeNull();
  });

  it('turns a 429 with Retry-After into a retryable failure with that delay', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(notes, 'addComment', {
      ...call(),
      parameters: { note: 'n1', body: 'Hi' },
      execution: null,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });

  it('builds bearer and basic headers', () => {
    expect(bearerHeader('t')).toEqual({ authorization: 'Bearer t' });
    expect(basicHeader('ann', 'pw:1')).toEqual({
      authorization: `Basic ${Buffer.from('ann:pw:1').toString('base64')}`,
    });
  });
});

describe('base-URL overrides', () => {
  it('name each app by its key upper-cased, other characters as _', () => {
    expect(overrideVariable('APP_BASE_URL_', 'telegram-bot')).toBe('APP_BASE_URL_TELEGRAM_BOT');
    expect(overrideVariable('APP_AUTH_URL_', 'google-sheets')).toBe('APP_AUTH_URL_GOOGLE_SHEETS');
  });

  it('keep the path of an OAuth endpoint on the override, under its prefix', () => {
    expect(rebase('https://accounts.example.com/o/oauth2/token?x=1', 'http://127.0.0.1:9/fake/')).toBe(
      'http://127.0.0.1:9/fake/o/oauth2/token?x=1',
    );
  });

  it('point an app at another server, and warn of a variable that names no app', async () => {
    const logger = new CapturingLogger();
    const catalog = createAppCatalog({
      apps: [notes],
      allowPrivateNetworks: true,
      logger,
      appAddresses: { APP_BASE_URL_NOTES_KIT: vendor.url, APP_BASE_URL_NOTE_KIT: 'http://typo.invalid' },
    });
    const check = await catalog.verifyCredentials('notes-kit', { apiKey: 'k3y' }, null);
    expect(check).toMatchObject({ ok: true, screenName: 'Ann' });
    expect(logger.entries.map((entry) => entry.fields)).toContainEqual({ variable: 'APP_BASE_URL_NOTE_KIT' });
    await catalog.close();
  });

  it('are read from the environment, and refused when they are not http(s) URLs', () => {
    const config = loadConfig({ APP_BASE_URL_SLACK: 'http://127.0.0.1:4000/api', PORT: '3000' }, '/tmp/conveyor');
    expect(config.appAddresses).toEqual({ APP_BASE_URL_SLACK: 'http://127.0.0.1:4000/api' });
    expect(() => loadConfig({ APP_AUTH_URL_SLACK: 'ftp://x' }, '/tmp/conveyor')).toThrow(ConfigError);
    expect(() => loadConfig({ APP_AUTH_URL_SLACK: 'ftp://x' }, '/tmp/conveyor')).toThrow(
      /APP_AUTH_URL_SLACK must be an http or https URL/,
    );
  });
});
