import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { BlockedAddressError, InvalidParametersError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { describeAppContract } from './app-contract.js';
import { exampleApp, plainApp } from './support/example-app.js';
import { type LocalHttpServer, sendJson, startHttpServer } from './support/http-server.js';

const API_KEY = 'key-0123456789';

let server: LocalHttpServer;
let catalog: InProcessAppCatalog;
let guarded: InProcessAppCatalog;
const logger = new CapturingLogger();

beforeAll(async () => {
  server = await startHttpServer((request, res) => {
    if (request.headers['x-api-key'] !== API_KEY) return sendJson(res, 403, { error: 'Unknown API key' });
    if (request.url === '/me') return sendJson(res, 200, { name: 'Example account' });
    return sendJson(res, 200, { url: request.url });
  });
  catalog = createAppCatalog({ apps: [plainApp, exampleApp], allowPrivateNetworks: true, logger });
  guarded = createAppCatalog({ apps: [plainApp, exampleApp], allowPrivateNetworks: false, logger });
});

afterAll(async () => {
  await Promise.all([catalog.close(), guarded.close(), server.close()]);
});

const credentials = () => ({ serverUrl: server.url, apiKey: API_KEY, region: 'eu' });
const connection = () => ({ credentials: credentials(), oauth: null });

describeAppContract(exampleApp);
describeAppContract(plainApp);

describe('createAppCatalog', () => {
  it('refuses two apps with one key', () => {
    expect(() => createAppCatalog({ apps: [plainApp, plainApp], allowPrivateNetworks: false, logger })).toThrow(
      /plain/,
    );
  });

  it('lists descriptions by name and finds them by key', () => {
    expect(catalog.list().map((a) => a.key)).toEqual(['plain', 'example-api']);
    expect(catalog.find('example-api')).toBe(exampleApp.manifest);
    expect(catalog.find('nope')).toBeNull();
  });
});

describe('parseAuthFields and parseClientSettings', () => {
  it('return the parsed fields, defaults applied', () => {
    expect(catalog.parseAuthFields('example-api', { serverUrl: 'https://api.test', apiKey: 'k' })).toEqual({
      ok: true,
      value: { serverUrl: 'https://api.test', apiKey: 'k', region: 'eu' },
    });
  });

  it('key the errors by field', () => {
    expect(catalog.parseAuthFields('example-api', { serverUrl: 'nope', apiKey: 5, region: ['x'] })).toEqual({
      ok: false,
      fields: { serverUrl: ['must be an http or https URL.'], region: ['must be a string.'] },
    });
    expect(catalog.parseAuthFields('example-api', {})).toEqual({
      ok: false,
      fields: { serverUrl: ['is required.'], apiKey: ['is required.'] },
    });
  });

  it('have nothing to parse for apps without connections, and no client for apps without OAuth', () => {
    expect(catalog.parseAuthFields('plain', { anything: 1 })).toEqual({ ok: true, value: {} });
    expect(catalog.parseClientSettings('example-api', {})).toEqual({
      ok: false,
      fields: { general: ['Example API does not use OAuth.'] },
    });
    expect(catalog.parseAuthFields('missing', {})).toEqual({
      ok: false,
      fields: { general: ['missing is not a known app.'] },
    });
    expect(
      catalog.authorizationUrl('example-api', {
        client: { clientId: 'a', clientSecret: 'b' },
        redirectUri: 'x',
        state: 's',
      }),
    ).toBeNull();
  });
});

describe('verifyCredentials', () => {
  it('runs verify with the parsed fields and keeps what it sets', async () => {
    const check = await catalog.verifyCredentials('example-api', { ...credentials(), code: 'x', state: 'y' }, null);
    expect(check).toEqual({
      ok: true,
      screenName: 'Example account',
      credentials: { ...credentials(), verifiedRegion: 'eu' },
    });
  });

  it('gives the remote reason when the service refuses', async () => {
    const check = await catalog.verifyCredentials('example-api', { ...credentials(), apiKey: 'wrong-key-123' }, null);
    expect(check).toEqual({ ok: false, reason: `GET ${server.url}/me answered 403: Unknown API key` });
  });

  it('never repeats a secret in the reason or the logs, and never a stack', async () => {
    const check = await catalog.verifyCredentials('example-api', { ...credentials(), apiKey: 'boom-secret' }, null);
    expect(check).toEqual({ ok: false, reason: 'key [redacted] was refused' });
    expect(logger.text()).not.toContain('boom-secret');
    expect(logger.text()).not.toContain(API_KEY);
    expect(logger.text()).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('names the fields missing from stored credentials', async () => {
    expect(await catalog.verifyCredentials('example-api', { serverUrl: server.url }, null)).toEqual({
      ok: false,
      reason: 'Missing or invalid: apiKey.',
    });
  });

  it('has nothing to check for apps without connections', async () => {
    expect(await catalog.verifyCredentials('plain', {}, null)).toEqual({ ok: true, screenName: null, credentials: {} });
  });

  it('re-checks stored credentials', async () => {
    expect(await catalog.isStillVerified('example-api', connection())).toBe(true);
    expect(
      await catalog.isStillVerified('example-api', { credentials: { ...credentials(), apiKey: 'old' }, oauth: null }),
    ).toBe(false);
  });
});

describe('running steps', () => {
  it('gives run typed parameters, the connection, the execution and a store', async () => {
    const execution = {
      id: 'exec-1',
      flowId: 'flow-1',
      stepId: 'step-1',
      testRun: true,
      idempotencyKey: 'exec-1:step-1',
    };
    const result = await catalog.runAction({
      appKey: 'example-api',
      key: 'lookup',
      parameters: { id: '12' },
      connection: connection(),
      execution,
    });
    expect(result).toEqual({
      thing: { url: '/things/12?format=short' },
      execution,
      aborted: false,
      count: 1,
    });
    expect(server.requests.at(-1)?.headers['x-api-key']).toBe(API_KEY);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({ message: 'looking up', fields: { app: 'example-api', step: 'lookup', id: 12 } }),
    );
    expect(logger.text()).not.toContain(API_KEY);
  });

  it('refuses parameters that do not fit, naming the fields', async () => {
    const run = catalog.runAction({
      appKey: 'example-api',
      key: 'lookup',
      parameters: { id: 'abc', format: 'huge' },
      connection: connection(),
      execution: null,
    });
    await expect(run).rejects.toBeInstanceOf(InvalidParametersError);
    await expect(run).rejects.toMatchObject({
      fields: { id: ['must be a number.'], format: ['must be one of: short, long.'] },
    });
  });

  it('passes the webhook call to webhook triggers', async () => {
    const items = await catalog.runTrigger({
      appKey: 'example-api',
      key: 'newEvent',
      parameters: {},
      connection: connection(),
      execution: null,
      webhook: { method: 'POST', headers: {}, query: {}, body: { hello: 1 } },
    });
    expect(items).toEqual([{ data: { hello: 1 } }]);
  });

  it('computes dynamic fields and lets their values through', async () => {
    const fields = await catalog.dynamicFields({
      appKey: 'example-api',
      key: 'extraFields',
      parameters: { kind: 'fancy' },
      connection: connection(),
    });
    expect(fields).toEqual([{ key: 'extra', label: 'Field for fancy', type: 'string', required: false }]);
    const echoed = await catalog.runAction({
      appKey: 'example-api',
      key: 'custom',
      parameters: { kind: 'fancy', extra: 'value' },
      connection: connection(),
      execution: null,
    });
    expect(echoed).toEqual({ kind: 'fancy', extra: 'value' });
  });

  it('does not send the API key to other origins', async () => {
    const other = await startHttpServer((request, res) =>
      sendJson(res, 200, { key: request.headers['x-api-key'] ?? null }),
    );
    try {
      const result = await catalog.runAction({
        appKey: 'example-api',
        key: 'lookup',
        parameters: { id: 1, target: `${other.url}/steal` },
        connection: connection(),
        execution: null,
      });
      expect(result).toMatchObject({ thing: { key: null } });
    } finally {
      await other.close();
    }
  });

  it.each([
    () => `http://127.0.0.1:${server.port}/`,
    () => `http://localhost:${server.port}/`,
    () => 'http://169.254.169.254/latest/meta-data/',
    () => `http://[::ffff:127.0.0.1]:${server.port}/`,
  ])('refuses internal addresses in ctx.http when the instance does %#', async (url) => {
    const before = server.requests.length;
    await expect(
      guarded.runAction({
        appKey: 'plain',
        key: 'fetch',
        parameters: { url: url() },
        connection: null,
        execution: null,
      }),
    ).rejects.toBeInstanceOf(BlockedAddressError);
    expect(server.requests.length).toBe(before);
  });

  it('reaches them when the instance allows private networks', async () => {
    const run = catalog.runAction({
      appKey: 'plain',
      key: 'fetch',
      parameters: { url: `http://localhost:${server.port}/me` },
      connection: null,
      execution: null,
    });
    await expect(run).rejects.toMatchObject({ name: 'HttpError', status: 403, remoteMessage: 'Unknown API key' });
  });
});
