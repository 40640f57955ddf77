import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import { loadAppDynamicData, runAppAction, runAppTrigger, TEST_REDIRECT_URI } from '../../adapters/apps/app-harness.js';
import {
  createMemoryStore,
  hmacHex,
  WebhookRefusedError,
  WebhookReplyRequested,
} from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { zoom } from '../../adapters/apps/zoom/index.js';
import type { Credentials } from '../../core/domain/app.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const CLIENT = {
  clientId: 'zoomClientId01',
  clientSecret: 'zoom-client-secret',
  webhookSecretToken: 'zoom-webhook-secret',
};
const VERIFIER = 'zoom-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';
const GOOD_CODE = 'zoom-good-code';
const USER = {
  id: 'KDcuGIm1QgePTO8WbOqwIQ',
  account_id: 'lAAAAAAAAAAAAA',
  email: 'jchill@example.com',
  display_name: 'Jill Chill',
};

const tokens = new Set(['zoom-access-1']);
let refreshToken = 'zoom-refresh-1';

const zoomError = (status: number, code: number, message: string) => reply(status, { code, message });

/** Zoom's token endpoint: the client as HTTP Basic credentials, PKCE, rotating refresh tokens. */
const tokenEndpoint = (req: FakeRequest) => {
  const basic = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`;
  if (req.headers.authorization !== basic)
    return reply(401, { reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
  const form = req.body as Record<string, string>;
  const issue = (n: number) => {
    tokens.add(`zoom-access-${n}`);
    refreshToken = `zoom-refresh-${n}`;
    return {
      access_token: `zoom-access-${n}`,
      token_type: 'bearer',
      refresh_token: refreshToken,
      expires_in: 3599,
      scope: 'meeting:read meeting:write user:read',
    };
  };
  if (form.grant_type === 'authorization_code') {
    if (form.code !== GOOD_CODE || form.redirect_uri !== TEST_REDIRECT_URI)
      return reply(400, { reason: 'Invalid authorization code', error: 'invalid_grant' });
    if (form.code_verifier !== VERIFIER)
      return reply(400, { reason: 'Invalid code verifier', error: 'invalid_request' });
    return issue(1);
  }
  if (form.grant_type === 'refresh_token' && form.refresh_token === refreshToken)
    return issue(Number(refreshToken.split('-').at(-1)) + 1);
  return reply(400, { reason: 'Invalid Token!', error: 'invalid_request' });
};

const MEETINGS = Array.from({ length: 5 }, (_, i) => ({
  uuid: `uuid-${i}==`,
  id: 85746065000 + i,
  host_id: USER.id,
  topic: `Standup ${i}`,
  type: 2,
  start_time: `2024-06-0${i + 1}T09:00:00Z`,
  created_at: `2024-05-0${((i * 3) % 5) + 1}T08:00:00Z`,
  join_url: `https://zoom.us/j/8574606500${i}`,
}));

/** A Zoom list, two a page, continued by next_page_token. */
const page = (key: string, all: readonly unknown[]) => (req: FakeRequest) => {
  const start = Number(req.query.next_page_token || 0);
  return {
    page_size: 2,
    total_records: all.length,
    next_page_token: start + 2 < all.length ? String(start + 2) : '',
    [key]: all.slice(start, start + 2),
  };
};

let vendor: FakeVendor;

beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) =>
      req.path === '/oauth/token' || tokens.has(req.headers.authorization?.replace('Bearer ', '') ?? ''),
    unauthorized: zoomError(401, 124, 'Invalid access token.'),
    rateLimited: reply(
      429,
      { code: 429, message: 'You have reached the maximum per-second rate limit for this API. Try again later.' },
      { 'retry-after': '3' },
    ),
    routes: {
      'POST /oauth/token': tokenEndpoint,
      'GET /users/me': () => USER,
      'GET /users/me/meetings': (req) =>
        ['scheduled', 'upcoming'].includes(req.query.type ?? '')
          ? page('meetings', MEETINGS)(req)
          : zoomError(400, 300, 'Invalid type.'),
      'GET /users/me/recordings': (req) =>
        /^\d{4}-\d{2}-\d{2}$/.test(req.query.from ?? '') && /^\d{4}-\d{2}-\d{2}$/.test(req.query.to ?? '')
          ? page('meetings', [
              { uuid: 'rec-old==', id: 1, start_time: '2024-05-01T09:00:00Z', recording_files: [{ file_type: 'MP4' }] },
              { uuid: 'rec-new==', id: 1, start_time: '2024-05-08T09:00:00Z', recording_files: [{ file_type: 'MP4' }] },
              { uuid: 'rec-mid==', id: 2, start_time: '2024-05-04T09:00:00Z', recording_files: [] },
            ])(req)
          : zoomError(400, 300, 'The next page token is invalid or expired.'),
      'GET /users/me/webinars': page('webinars', [
        { id: 91000, topic: 'Launch', start_time: '2024-07-01T15:00:00Z' },
        { id: 92000, topic: 'Q&A' },
      ]),
      'GET /webinars/:id/registrants': (req) =>
        req.params.id === '91000' && req.query.status === 'approved'
          ? page('registrants', [
              { id: 'r1', email: 'a@example.com', create_time: '2024-05-01T10:00:00Z' },
              { id: 'r3', email: 'c@example.com', create_time: '2024-05-03T10:00:00Z' },
              { id: 'r2', email: 'b@example.com', create_time: '2024-05-02T10:00:00Z' },
            ])(req)
          : zoomError(404, 200, `Webinar does not exist: ${req.params.id}.`),
      'POST /users/me/meetings': (req) =>
        reply(201, {
          id: 85746065999,
          host_id: USER.id,
          join_url: 'https://zoom.us/j/85746065999',
          ...(req.body as object),
        }),
      'POST /meetings/:id/registrants': (req) =>
        req.params.id === '85746065000'
          ? reply(201, {
              id: 85746065000,
              registrant_id: 'reg-1',
              join_url: 'https://zoom.us/w/85746065000?tk=x',
              topic: 'Standup 0',
              sent: req.body,
            })
          : zoomError(400, 3009, 'Meeting registration is not enabled for this meeting.'),
      'POST /webinars/:id/registrants': (req) =>
        reply(201, { id: Number(req.params.id), registrant_id: 'wreg-1', sent: req.body }),
    },
  });
});
afterAll(() => vendor.close());

const call = (
  parameters: Readonly<Record<string, unknown>> = {},
  auth: Credentials = { accessToken: 'zoom-access-1', zoomUserId: USER.id, zoomAccountId: USER.account_id },
) => ({
  parameters,
  auth,
  oauthClient: CLIENT,
  baseUrl: vendor.url,
  authUrl: vendor.url,
});

const connect = async (credentials: Credentials, codeVerifier: string | null = VERIFIER) => {
  const catalog = createAppCatalog({
    apps: [zoom],
    allowPrivateNetworks: true,
    logger: new CapturingLogger(),
    appAddresses: { APP_BASE_URL_ZOOM: vendor.url, APP_AUTH_URL_ZOOM: vendor.url },
  });
  try {
    return await catalog.verifyCredentials('zoom', credentials, {
      client: CLIENT,
      redirectUri: TEST_REDIRECT_URI,
      codeVerifier,
    });
  } finally {
    await catalog.close();
  }
};

describe('zoom: connection', () => {
  it("sends the user to Zoom's consent with a PKCE challenge, no scopes (the app's own)", () => {
    if (zoom.auth.kind !== 'oauth2') throw new Error('not OAuth2');
    const url = new URL(
      zoom.auth.authorizationUrl(CLIENT, { redirectUri: TEST_REDIRECT_URI, state: 's1', codeVerifier: VERIFIER }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://zoom.us/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT.clientId,
      redirect_uri: TEST_REDIRECT_URI,
      state: 's1',
      response_type: 'code',
      code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(zoom.manifest.auth.clientFields.map((field) => field.key)).toEqual([
      'clientId',
      'clientSecret',
      'webhookSecretToken',
    ]);
    expect(zoom.manifest.auth.clientFields.find((field) => field.key === 'webhookSecretToken')?.secret).toBe(true);
  });

  it('exchanges the code with the client as Basic credentials, names the connection and keeps the Zoom user', async () => {
    const check = await connect({ code: GOOD_CODE, state: 's1' });
    expect(check).toMatchObject({
      ok: true,
      screenName: 'Jill Chill - jchill@example.com',
      credentials: { accessToken: 'zoom-access-1', zoomUserId: USER.id, zoomAccountId: USER.account_id },
    });
    expect(vendor.calls('POST /oauth/token').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: GOOD_CODE,
      code_verifier: VERIFIER,
    });
  });

  it("refuses a bad code with Zoom's reason, and a dead token with Zoom's message", async () => {
    expect(await connect({ code: 'stale' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Invalid authorization code'),
    });
    expect(await connect({ accessToken: 'revoked' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Invalid access token.'),
    });
  });

  it('refreshes a token Zoom no longer takes, once, and keeps the new refresh token', async () => {
    const before = vendor.calls('POST /oauth/token').length;
    const store = { accessToken: 'expired', refreshToken };
    await runAppTrigger(zoom, 'newMeeting', { ...call({}, store), store: createMemoryStore() });
    const refreshes = vendor.calls('POST /oauth/token').slice(before);
    expect(refreshes.map((request) => (request.body as Record<string, string>).grant_type)).toEqual(['refresh_token']);
    expect(vendor.calls('GET /users/me/meetings').at(-1)?.headers.authorization).toMatch(/^Bearer zoom-access-\d+$/);
  });
});

describe('zoom: polling triggers', () => {
  it('newMeeting: every page of scheduled meetings, newest created first, by meeting id', async () => {
    const items = await runAppTrigger(zoom, 'newMeeting', call());
    expect(items.map((item) => item.id)).toEqual([
      '85746065003',
      '85746065001',
      '85746065004',
      '85746065002',
      '85746065000',
    ]);
  });

  it('newRecording: recordings of the last four weeks, newest first, by occurrence uuid', async () => {
    const items = await runAppTrigger(zoom, 'newRecording', call());
    expect(items.map((item) => item.id)).toEqual(['rec-new==', 'rec-mid==', 'rec-old==']);
    const { from = '', to = '' } = vendor.calls('GET /users/me/recordings').at(-1)?.query ?? {};
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(28);
  });

  it("newWebinarRegistrant: the webinar's approved registrants, newest first; Zoom's message for a webinar that is not there", async () => {
    const items = await runAppTrigger(zoom, 'newWebinarRegistrant', call({ webinarId: '91000' }));
    expect(items.map((item) => item.id)).toEqual(['r3', 'r2', 'r1']);
    await expect(runAppTrigger(zoom, 'newWebinarRegistrant', call({ webinarId: '1' }))).rejects.toThrow(
      'Webinar does not exist: 1.',
    );
  });
});

const signed = (body: unknown, { secret = CLIENT.webhookSecretToken, at = Math.floor(Date.now() / 1000) } = {}) => {
  const rawBody = JSON.stringify(body);
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-zm-request-timestamp': String(at),
      'x-zm-signature': `v0=${hmacHex('sha256', secret, `v0:${at}:${rawBody}`)}`,
    },
    query: {},
    body: JSON.parse(rawBody),
    rawBody,
  };
};

const started = (hostId: string) => ({
  event: 'meeting.started',
  event_ts: 1716000000000,
  payload: {
    account_id: USER.account_id,
    object: { id: '85746065000', uuid: 'uuid-0==', host_id: hostId, topic: 'Standup 0' },
  },
});

describe('zoom: webhook triggers', () => {
  it('a signed meeting.started starts a run with the event', async () => {
    const items = await runAppTrigger(zoom, 'meetingStarted', { ...call(), webhook: signed(started(USER.id)) });
    expect(items).toEqual([{ id: 'meeting.started:uuid-0==:1716000000000', data: started(USER.id) }]);
  });

  it("starts nothing for another event type, or another user's meeting", async () => {
    expect(await runAppTrigger(zoom, 'meetingEnded', { ...call(), webhook: signed(started(USER.id)) })).toEqual([]);
    expect(
      await runAppTrigger(zoom, 'meetingStarted', { ...call(), webhook: signed(started('someone-else')) }),
    ).toEqual([]);
  });

  it('webinarRegistrationCreated and recordingCompleted take their events', async () => {
    const registration = {
      event: 'webinar.registration_created',
      event_ts: 1716000000001,
      payload: {
        account_id: USER.account_id,
        object: { id: '91000', uuid: 'w-uuid', host_id: USER.id, registrant: { id: 'r9', email: 'z@example.com' } },
      },
    };
    expect(
      await runAppTrigger(zoom, 'webinarRegistrationCreated', { ...call(), webhook: signed(registration) }),
    ).toEqual([{ id: 'webinar.registration_created:w-uuid:r9:1716000000001', data: registration }]);
    const recording = {
      event: 'recording.completed',
      event_ts: 1,
      payload: { account_id: USER.account_id, object: { uuid: 'rec==', host_id: USER.id } },
    };
    expect(await runAppTrigger(zoom, 'recordingCompleted', { ...call(), webhook: signed(recording) })).toHaveLength(1);
  });

  it("answers Zoom's endpoint validation with the token's HMAC, once the request's signature holds", async () => {
    const validation = {
      event: 'endpoint.url_validation',
      event_ts: 1716000000002,
      payload: { plainToken: 'qgg8vlvZRS6UYooatFL8Aw' },
    };
    const answered = runAppTrigger(zoom, 'meetingStarted', { ...call(), webhook: signed(validation) });
    await expect(answered).rejects.toBeInstanceOf(WebhookReplyRequested);
    await expect(answered).rejects.toMatchObject({
      reply: {
        status: 200,
        body: {
          plainToken: 'qgg8vlvZRS6UYooatFL8Aw',
          encryptedToken: hmacHex('sha256', CLIENT.webhookSecretToken, 'qgg8vlvZRS6UYooatFL8Aw'),
        },
      },
    });
    // Unsigned, it would make the secret sign any text: refused.
    const forged = runAppTrigger(zoom, 'meetingStarted', {
      ...call(),
      webhook: signed(validation, { secret: 'guess' }),
    });
    await expect(forged).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('refuses a forged signature, an old timestamp, and any delivery without the secret token set', async () => {
    await expect(
      runAppTrigger(zoom, 'meetingStarted', { ...call(), webhook: signed(started(USER.id), { secret: 'wrong' }) }),
    ).rejects.toThrow('The x-zm-signature header does not match the body.');
    const old = signed(started(USER.id), { at: Math.floor(Date.now() / 1000) - 600 });
    await expect(runAppTrigger(zoom, 'meetingStarted', { ...call(), webhook: old })).rejects.toThrow(
      'more than five minutes',
    );
    const tampered = { ...signed(started(USER.id)), rawBody: JSON.stringify(started('someone-else')) };
    await expect(runAppTrigger(zoom, 'meetingStarted', { ...call(), webhook: tampered })).rejects.toBeInstanceOf(
      WebhookRefusedError,
    );
    const { webhookSecretToken: _unset, ...withoutSecret } = CLIENT;
    await expect(
      runAppTrigger(zoom, 'meetingStarted', {
        ...call(),
        oauthClient: withoutSecret,
        webhook: signed(started(USER.id)),
      }),
    ).rejects.toThrow("Set the Zoom app's webhook secret token in the OAuth client settings.");
  });
});

describe('zoom: actions', () => {
  it('createMeeting schedules a meeting (type 2) with its settings', async () => {
    const output = await runAppAction(
      zoom,
      'createMeeting',
      call({
        topic: 'Planning',
        startTime: '2024-06-03T09:30',
        timezone: 'Europe/Paris',
        duration: 45,
        waitingRoom: true,
      }),
    );
    expect(output).toMatchObject({ id: 85746065999, join_url: 'https://zoom.us/j/85746065999' });
    expect(vendor.calls('POST /users/me/meetings').at(-1)?.body).toEqual({
      topic: 'Planning',
      type: 2,
      start_time: '2024-06-03T09:30:00',
      duration: 45,
      timezone: 'Europe/Paris',
      settings: { waiting_room: true, auto_recording: 'none' },
    });
    await expect(
      runAppAction(zoom, 'createMeeting', call({ topic: 'x', startTime: 'tomorrow' })),
    ).rejects.toMatchObject({
      fields: { startTime: ['must be a date and time such as 2024-05-01T09:30:00 (or ending in Z for UTC).'] },
    });
  });

  it("addMeetingRegistrant registers someone; Zoom's message when registration is off", async () => {
    const output = await runAppAction(
      zoom,
      'addMeetingRegistrant',
      call({ meetingId: '85746065000', email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' }),
    );
    expect(output).toMatchObject({
      registrant_id: 'reg-1',
      sent: { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' },
    });
    await expect(
      runAppAction(zoom, 'addMeetingRegistrant', call({ meetingId: '1', email: 'a@example.com', firstName: 'A' })),
    ).rejects.toThrow('Meeting registration is not enabled for this meeting.');
  });

  it('addWebinarRegistrant registers someone for a webinar', async () => {
    expect(
      await runAppAction(
        zoom,
        'addWebinarRegistrant',
        call({ webinarId: '91000', email: 'bo@example.com', firstName: 'Bo' }),
      ),
    ).toEqual({ id: 91000, registrant_id: 'wreg-1', sent: { email: 'bo@example.com', first_name: 'Bo' } });
  });

  it("turns Zoom's 429 into a retryable failure after its Retry-After", async () => {
    const catalog = createAppCatalog({
      apps: [zoom],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_ZOOM: vendor.url },
    });
    vendor.rateLimit(1);
    const outcome = await createStepRunner(catalog, [zoom]).runAction({
      appKey: 'zoom',
      key: 'addWebinarRegistrant',
      parameters: { webinarId: '91000', email: 'bo@example.com', firstName: 'Bo' },
      connection: { credentials: { accessToken: 'zoom-access-1' }, oauth: { client: CLIENT } },
      store: createMemoryStore(),
      execution: null,
    });
    await catalog.close();
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 3000 } });
  });
});

describe('zoom: dynamic data', () => {
  it('listMeetings: every page of upcoming meetings', async () => {
    const options = await loadAppDynamicData(zoom, 'listMeetings', call());
    expect(options).toHaveLength(5);
    expect(options[0]).toEqual({ name: 'Standup 0 (2024-06-01T09:00:00Z)', value: '85746065000' });
    expect(vendor.calls('GET /users/me/meetings').at(-1)?.query.type).toBe('upcoming');
  });

  it('listWebinars: every page', async () => {
    expect(await loadAppDynamicData(zoom, 'listWebinars', call())).toEqual([
      { name: 'Launch (2024-07-01T15:00:00Z)', value: '91000' },
      { name: 'Q&A', value: '92000' },
    ]);
  });
});
