/**
 * A fake of Microsoft for the Microsoft 365 apps' tests: the identity platform's token endpoint
 * (`POST /{tenant}/oauth2/v2.0/token`, as login.microsoftonline.com answers), Graph's `/me` and
 * drives, and the routes of the API a test fakes, all on one server (the apps'
 * `APP_BASE_URL_<KEY>` and `APP_AUTH_URL_<KEY>` point there). Requests need a current access
 * token, else Graph's 401; errors have Graph's shape, `{ error: { code, message } }`.
 *
 *   const graph = await startFakeGraph({ 'GET /me/messages': (req) => graphPage(req, MESSAGES, 10) });
 *   await runAppAction(app, 'sendEmail', graph.call({ to: 'a@b.test' }));
 */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../../adapters/apps/app-catalog.js';
import {
  registerAppHook,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../../adapters/apps/app-harness.js';
import { overrideVariable } from '../../../adapters/apps/endpoint-overrides.js';
import {
  type App,
  createMemoryStore,
  WebhookRefusedError,
  WebhookReplyRequested,
} from '../../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../../adapters/apps/step-runner.js';
import type { Credentials } from '../../../core/domain/app.js';
import type { CredentialCheck } from '../../../ports/app-catalog.js';
import type { ActionOutcome } from '../../../ports/step-runner.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import {
  type FakeHandler,
  type FakeRequest,
  type FakeVendor,
  reply,
  startFakeVendor,
} from '../../support/fake-vendor.js';

export const MICROSOFT_CLIENT = {
  clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
  clientSecret: 'fake~client~secret',
};

export const FIRST_TOKEN = 'eyJ0eXAi.first-access';
export const REFRESHED_TOKEN = 'eyJ0eXAi.refreshed-access';
export const REFRESH_TOKEN = '0.AAAA-first-refresh';
export const GOOD_CODE = '0.AWgA-good-code';
/** The PKCE verifier the consent that gave GOOD_CODE was started with (its S256 challenge on the URL). */
export const GOOD_VERIFIER = 'verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG';

/** Graph's error answer. */
export const graphError = (status: number, code: string, message: string) =>
  reply(status, { error: { code, message, innerError: { date: '2024-05-01T10:00:00', 'request-id': 'r-1' } } });

/**
 * One page of a Graph collection, `$top` entries (at most `size`) from `$skiptoken`, with the next
 * page's address as Graph writes it: on graph.microsoft.com, which the apps send to the fake.
 */
export const graphPage = (req: FakeRequest, entries: readonly unknown[], size: number) => {
  const start = Number(req.query.$skiptoken ?? 0);
  const top = Math.min(Number(req.query.$top ?? size), size);
  const next = new URL(`https://graph.microsoft.com/v1.0${req.path}`);
  for (const [name, value] of Object.entries(req.query)) if (name !== '$skiptoken') next.searchParams.set(name, value);
  next.searchParams.set('$skiptoken', String(start + top));
  return {
    '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#${req.path}`,
    value: entries.slice(start, start + top),
    ...(start + top < entries.length && { '@odata.nextLink': next.toString() }),
  };
};

export const ME = {
  id: '48d31887-5fad-4d73-a9f5-3c356e68a038',
  displayName: 'Megan Bowen',
  mail: 'MeganB@contoso.test',
  userPrincipalName: 'MeganB@contoso.test',
};

/** The SharePoint sites Megan follows: 12, listed 5 a page, each with one document library. */
export const FOLLOWED_SITES = Array.from({ length: 12 }, (_, i) => ({
  id: `contoso.sharepoint.com,site-${i + 1}`,
  displayName: `Site ${i + 1}`,
}));

export interface FakeGraph {
  readonly vendor: FakeVendor;
  readonly url: string;
  /** Access tokens Graph takes now: the first one, and the refreshed one once refreshed. */
  readonly validTokens: Set<string>;
  /** What a step call needs: parameters, a connection with the first token, the fake's addresses. */
  call(parameters?: Readonly<Record<string, unknown>>): {
    parameters: Readonly<Record<string, unknown>>;
    auth: Readonly<Record<string, unknown>>;
    oauthClient: typeof MICROSOFT_CLIENT;
    baseUrl: string;
    authUrl: string;
  };
  close(): Promise<void>;
}

const bearer = (authorization: string | undefined) => authorization?.replace(/^Bearer /, '') ?? '';

const tokenEndpoint = (validTokens: Set<string>) => (req: FakeRequest) => {
  const form = req.body as Record<string, string>;
  if (form.client_id !== MICROSOFT_CLIENT.clientId || form.client_secret !== MICROSOFT_CLIENT.clientSecret) {
    return reply(401, {
      error: 'invalid_client',
      error_description: `AADSTS7000215: Invalid client secret provided. Trace ID: t-1`,
      error_codes: [7000215],
    });
  }
  const issued = (access: string, refresh: string) => {
    validTokens.add(access);
    return {
      token_type: 'Bearer',
      scope: 'Files.ReadWrite.All User.Read profile openid email',
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: access,
      refresh_token: refresh,
    };
  };
  if (form.grant_type === 'authorization_code' && form.code === GOOD_CODE && form.redirect_uri) {
    if (form.code_verifier !== GOOD_VERIFIER) {
      return reply(400, {
        error: 'invalid_grant',
        error_description:
          'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.',
        error_codes: [501481],
      });
    }
    return issued(FIRST_TOKEN, REFRESH_TOKEN);
  }
  if (form.grant_type === 'refresh_token' && form.refresh_token === REFRESH_TOKEN) {
    // The identity platform rotates refresh tokens: each refresh answers a new one.
    return issued(REFRESHED_TOKEN, `${REFRESH_TOKEN}-2`);
  }
  return reply(400, {
    error: 'invalid_grant',
    error_description: 'AADSTS70000: The provided value for the code parameter is not valid. Trace ID: t-2',
    error_codes: [70000],
  });
};

export const startFakeGraph = async (routes: Readonly<Record<string, FakeHandler>>): Promise<FakeGraph> => {
  const validTokens = new Set([FIRST_TOKEN]);
  const vendor = await startFakeVendor({
    authorize: (req) => /\/oauth2\/v2\.0\/token$/.test(req.path) || validTokens.has(bearer(req.headers.authorization)),
    unauthorized: graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'),
    rateLimited: reply(
      429,
      { error: { code: 'TooManyRequests', message: 'Too many requests, retry after the time given.' } },
      { 'retry-after': '7' },
    ),
    routes: {
      'POST /:tenant/oauth2/v2.0/token': tokenEndpoint(validTokens),
      'GET /me': (req) =>
        req.query.$select === 'id,displayName,mail,userPrincipalName'
          ? ME
          : graphError(400, 'BadRequest', 'Expected $select.'),
      'GET /me/drives': () => ({ value: [{ id: 'b!own', name: 'OneDrive', driveType: 'business' }] }),
      'GET /me/followedSites': (req) => graphPage(req, FOLLOWED_SITES, 5),
      'GET /sites/:site/drives': (req) => ({
        value: [{ id: `drive-of-${req.params.site}`, name: 'Documents', driveType: 'documentLibrary' }],
      }),
      'POST /subscriptions': (req) => {
        const body = req.body as Record<string, string>;
        if (!body.notificationUrl?.startsWith('https://')) {
          return graphError(400, 'ValidationError', 'The notification URL must use the HTTPS protocol.');
        }
        return reply(201, {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#subscriptions/$entity',
          id: randomUUID(),
          applicationId: MICROSOFT_CLIENT.clientId,
          creatorId: ME.id,
          ...body,
        });
      },
      'PATCH /subscriptions/:id': (req) => ({ id: req.params.id, ...(req.body as object) }),
      'DELETE /subscriptions/:id': () => reply(204),
      ...routes,
    },
  });
  return {
    vendor,
    url: vendor.url,
    validTokens,
    call: (parameters = {}) => ({
      parameters,
      auth: { accessToken: FIRST_TOKEN, refreshToken: REFRESH_TOKEN, tokenType: 'Bearer' },
      oauthClient: MICROSOFT_CLIENT,
      baseUrl: vendor.url,
      authUrl: vendor.url,
    }),
    close: () => vendor.close(),
  };
};

/** Connects as the console would after consent: the code with the verifier its consent was started with. */
export const verifyMicrosoft = (
  app: App,
  graph: FakeGraph,
  credentials: Credentials,
  codeVerifier: string | null = GOOD_VERIFIER,
): Promise<CredentialCheck> =>
  verifyAppAuth(app, credentials, {
    baseUrl: graph.url,
    authUrl: graph.url,
    oauthClient: MICROSOFT_CLIENT,
    codeVerifier,
  });

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface MicrosoftConnectionCase {
  readonly app: App;
  readonly graph: FakeGraph;
  /** The app's own Graph scopes, before the two every Microsoft app asks. */
  readonly scopes: readonly string[];
  /** A step that calls Graph, and the fake's route it reaches: it must refresh a stale token. */
  readonly refreshedBy: {
    readonly kind: 'action' | 'trigger';
    readonly key: string;
    readonly parameters: Readonly<Record<string, unknown>>;
    readonly route: string;
  };
}

/**
 * The Microsoft identity platform connection every Microsoft 365 app shares: consent URL on the
 * client's tenant, code exchange with the user's name, the platform's refusal, and a stale token
 * refreshed on 401.
 */
export const describeMicrosoftConnection = (setup: () => MicrosoftConnectionCase) =>
  describe('connection (Microsoft identity platform OAuth2)', () => {
    it('sends the user to the tenant (common by default) with the scopes, offline access and a PKCE challenge', () => {
      const { app, scopes } = setup();
      if (app.auth.kind !== 'oauth2') throw new Error('not an OAuth2 app');
      const consent = { redirectUri: TEST_REDIRECT_URI, state: 's1', codeVerifier: GOOD_VERIFIER };
      const url = new URL(app.auth.authorizationUrl(MICROSOFT_CLIENT, consent));
      expect(`${url.origin}${url.pathname}`).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        client_id: MICROSOFT_CLIENT.clientId,
        redirect_uri: TEST_REDIRECT_URI,
        state: 's1',
        response_type: 'code',
        scope: [...scopes, 'offline_access', 'User.Read'].join(' '),
        code_challenge: s256(GOOD_VERIFIER),
        code_challenge_method: 'S256',
      });
      const tenant = new URL(
        app.auth.authorizationUrl({ ...MICROSOFT_CLIENT, tenant: 'contoso.onmicrosoft.com' }, consent),
      );
      expect(tenant.pathname).toBe('/contoso.onmicrosoft.com/oauth2/v2.0/authorize');
      expect(app.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret', 'tenant']);
    });

    it("exchanges the code at the tenant's token endpoint and names the connection from /me", async () => {
      const { app, graph } = setup();
      const check = await verifyMicrosoft(app, graph, { code: GOOD_CODE, state: 's1' });
      expect(check).toMatchObject({ ok: true, screenName: 'Megan Bowen - MeganB@contoso.test' });
      const exchange = graph.vendor.calls('POST /:tenant/oauth2/v2.0/token').at(-1);
      expect(exchange?.path).toBe('/common/oauth2/v2.0/token');
      expect(exchange?.body).toMatchObject({
        grant_type: 'authorization_code',
        code: GOOD_CODE,
        redirect_uri: TEST_REDIRECT_URI,
        client_id: MICROSOFT_CLIENT.clientId,
        client_secret: MICROSOFT_CLIENT.clientSecret,
        code_verifier: GOOD_VERIFIER,
      });
      expect(graph.vendor.calls('GET /me').at(-1)?.headers.authorization).toBe(`Bearer ${FIRST_TOKEN}`);
      if (check.ok) expect(check.credentials).toMatchObject({ accessToken: FIRST_TOKEN, refreshToken: REFRESH_TOKEN });
    });

    it("refuses a bad code or verifier with the platform's reason, and a dead token with Graph's message", async () => {
      const { app, graph } = setup();
      const refused = await verifyMicrosoft(app, graph, { code: '0.stale', state: 's1' });
      expect(refused).toEqual({
        ok: false,
        reason: expect.stringContaining('AADSTS70000: The provided value for the code parameter is not valid.'),
      });
      expect(await verifyMicrosoft(app, graph, { code: GOOD_CODE }, 'another-verifier-0123456789-abcdefghijk')).toEqual(
        {
          ok: false,
          reason: expect.stringContaining('AADSTS501481'),
        },
      );
      // A code that did not come back to a consent started here has no verifier: Microsoft is not asked.
      const before = graph.vendor.calls('POST /:tenant/oauth2/v2.0/token').length;
      expect(await verifyMicrosoft(app, graph, { code: GOOD_CODE }, null)).toMatchObject({ ok: false });
      expect(graph.vendor.calls('POST /:tenant/oauth2/v2.0/token')).toHaveLength(before);
      const dead = await verifyMicrosoft(app, graph, { accessToken: 'eyJ.revoked' });
      expect(dead).toMatchObject({ ok: false, reason: expect.stringContaining('Access token has expired') });
    });

    it('refreshes a token Graph no longer takes, once, and retries with the new one', async () => {
      const { app, graph, refreshedBy } = setup();
      const before = graph.vendor.calls('POST /:tenant/oauth2/v2.0/token').length;
      const call = {
        ...graph.call(refreshedBy.parameters),
        auth: { accessToken: 'eyJ.stale', refreshToken: REFRESH_TOKEN },
      };
      await (refreshedBy.kind === 'action'
        ? runAppAction(app, refreshedBy.key, call)
        : runAppTrigger(app, refreshedBy.key, call));
      const refreshes = graph.vendor.calls('POST /:tenant/oauth2/v2.0/token').slice(before);
      expect(refreshes.map((request) => (request.body as Record<string, string>).grant_type)).toEqual([
        'refresh_token',
      ]);
      expect(graph.vendor.calls(refreshedBy.route).at(-1)?.headers.authorization).toBe(`Bearer ${REFRESHED_TOKEN}`);
    });
  });

/**
 * Runs an action as the engine's step runner does, the fake answering 429 first: the outcome (a
 * retryable failure whose delay is Graph's Retry-After, when the app lets the HttpError through).
 */
export const runRateLimited = async (
  app: App,
  graph: FakeGraph,
  key: string,
  parameters: Readonly<Record<string, unknown>>,
): Promise<ActionOutcome> => {
  const catalog = createAppCatalog({
    apps: [app],
    allowPrivateNetworks: true,
    logger: new CapturingLogger(),
    appAddresses: { [overrideVariable('APP_BASE_URL_', app.key)]: graph.url },
  });
  try {
    graph.vendor.rateLimit(1);
    return await createStepRunner(catalog, [app]).runAction({
      appKey: app.key,
      key,
      parameters,
      connection: {
        credentials: { accessToken: FIRST_TOKEN, refreshToken: REFRESH_TOKEN },
        oauth: { client: MICROSOFT_CLIENT },
      },
      store: createMemoryStore(),
      execution: null,
    });
  } finally {
    await catalog.close();
  }
};

export const WEBHOOK_URL = 'https://conveyor.test/webhooks/flows/f-1';

export interface GraphNotificationCase {
  readonly app: App;
  readonly graph: FakeGraph;
  /** Parameters for the instant trigger. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** What the subscription must watch, and how long it may live (Graph's maximum for it). */
  readonly resource: string;
  readonly maxMinutes: number;
  /** The id a notification names, and the fake's route its entry is read from, with what it answers. */
  readonly entryId: string;
  readonly entryRoute: string;
  readonly entry: unknown;
}

const notification = (hook: { id: string; clientState: string }, fields: Readonly<Record<string, unknown>>) => ({
  subscriptionId: hook.id,
  clientState: hook.clientState,
  subscriptionExpirationDateTime: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  tenantId: '84bd8158-6d4d-4958-8b9f-9d6445542f95',
  ...fields,
});

const delivery = (value: readonly unknown[]) => {
  const rawBody = JSON.stringify({ value });
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    query: {},
    body: JSON.parse(rawBody),
    rawBody,
  };
};

/**
 * An instant trigger over Graph change notifications: its subscription made on publish and
 * deleted on unpublish, Graph's validation handshake, a delivery read into runs, a forged one
 * refused, and the subscription renewed when Graph asks.
 */
export const describeGraphNotifications = (key: string, setup: () => GraphNotificationCase) =>
  describe(`instant trigger ${key} (Graph change notifications)`, () => {
    const register = async () => {
      const { app, graph, parameters } = setup();
      const hook = (await registerAppHook(app, key, { ...graph.call(parameters), webhookUrl: WEBHOOK_URL })) as {
        id: string;
        clientState: string;
      };
      return hook;
    };

    it('subscribes the flow address to created entries, lifecycle events included, with a random clientState', async () => {
      const { graph, resource, maxMinutes } = setup();
      const hook = await register();
      const sent = graph.vendor.calls('POST /subscriptions').at(-1)?.body as Record<string, string>;
      expect(sent).toMatchObject({
        changeType: 'created',
        notificationUrl: WEBHOOK_URL,
        lifecycleNotificationUrl: WEBHOOK_URL,
        resource,
        clientState: hook.clientState,
      });
      expect(hook.clientState).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await register()).clientState).not.toBe(hook.clientState);
      const minutes = (Date.parse(sent.expirationDateTime ?? '') - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(maxMinutes * 0.9);
      expect(minutes).toBeLessThan(maxMinutes);
    });

    it("fails the publish with Graph's reason when Graph refuses the subscription", async () => {
      const { app, graph, parameters } = setup();
      await expect(
        registerAppHook(app, key, { ...graph.call(parameters), webhookUrl: 'http://conveyor.test/webhooks/flows/f-1' }),
      ).rejects.toThrow('The notification URL must use the HTTPS protocol.');
    });

    it("answers Graph's validation request with its token, as text", async () => {
      const { app, graph, parameters } = setup();
      const validation = runAppTrigger(app, key, {
        ...graph.call(parameters),
        webhook: {
          method: 'POST',
          headers: {},
          query: { validationToken: 'Validation: Testing client application reachability' },
          body: null,
          rawBody: '',
        },
      });
      await expect(validation).rejects.toBeInstanceOf(WebhookReplyRequested);
      await expect(validation).rejects.toMatchObject({
        reply: { status: 200, body: 'Validation: Testing client application reachability' },
      });
    });

    it('reads each entry a notification names into a run', async () => {
      const { app, graph, parameters, entryId, entryRoute, entry } = setup();
      const hook = await register();
      const items = await runAppTrigger(app, key, {
        ...graph.call(parameters),
        hook,
        webhook: delivery([
          notification(hook, {
            changeType: 'created',
            resource: `Users/${ME.id}/x/${entryId}`,
            resourceData: { id: entryId },
          }),
          notification(hook, {
            changeType: 'created',
            resource: `Users/${ME.id}/x/gone`,
            resourceData: { id: 'gone' },
          }),
        ]),
      });
      expect(items).toEqual([{ id: entryId, data: entry }]);
      expect(graph.vendor.calls(entryRoute).at(-1)?.headers.authorization).toBe(`Bearer ${FIRST_TOKEN}`);
    });

    it('refuses a notification without the clientState of the subscription, or with no subscription', async () => {
      const { app, graph, parameters, entryId } = setup();
      const hook = await register();
      const forged = delivery([
        notification({ ...hook, clientState: 'guessed' }, { changeType: 'created', resourceData: { id: entryId } }),
      ]);
      await expect(
        runAppTrigger(app, key, { ...graph.call(parameters), hook, webhook: forged }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
      const other = delivery([notification({ ...hook, id: 'another-subscription' }, { changeType: 'created' })]);
      await expect(runAppTrigger(app, key, { ...graph.call(parameters), hook, webhook: other })).rejects.toThrow(
        "The notification does not carry this flow's subscription and clientState.",
      );
      const ours = delivery([notification(hook, { changeType: 'created', resourceData: { id: entryId } })]);
      await expect(runAppTrigger(app, key, { ...graph.call(parameters), webhook: ours })).rejects.toThrow(
        'No Microsoft Graph subscription is registered for this flow.',
      );
    });

    it('renews the subscription when Graph asks, and when a notification finds it past half its life', async () => {
      const { app, graph, parameters, entryId, maxMinutes } = setup();
      const hook = await register();
      const before = graph.vendor.calls('PATCH /subscriptions/:id').length;
      const asked = await runAppTrigger(app, key, {
        ...graph.call(parameters),
        hook,
        webhook: delivery([notification(hook, { lifecycleEvent: 'reauthorizationRequired' })]),
      });
      expect(asked).toEqual([]);
      const late = notification(hook, {
        changeType: 'created',
        resourceData: { id: entryId },
        subscriptionExpirationDateTime: new Date(Date.now() + maxMinutes * 10_000).toISOString(),
      });
      expect(
        await runAppTrigger(app, key, { ...graph.call(parameters), hook, webhook: delivery([late]) }),
      ).toHaveLength(1);
      const renewals = graph.vendor.calls('PATCH /subscriptions/:id').slice(before);
      expect(renewals.map((request) => request.params.id)).toEqual([hook.id, hook.id]);
      const minutes =
        (Date.parse((renewals[0]?.body as { expirationDateTime?: string } | undefined)?.expirationDateTime ?? '') -
          Date.now()) /
        60_000;
      expect(minutes).toBeGreaterThan(maxMinutes * 0.9);
      const fresh = await runAppTrigger(app, key, {
        ...graph.call(parameters),
        hook,
        webhook: delivery([notification(hook, { changeType: 'created', resourceData: { id: entryId } })]),
      });
      expect(fresh).toHaveLength(1);
      expect(graph.vendor.calls('PATCH /subscriptions/:id').slice(before)).toHaveLength(2);
    });

    it('deletes the subscription when the flow is unpublished', async () => {
      const { app, graph, parameters } = setup();
      const hook = await register();
      await unregisterAppHook(app, key, { ...graph.call(parameters), webhookUrl: WEBHOOK_URL, hook });
      expect(graph.vendor.calls('DELETE /subscriptions/:id').at(-1)?.params.id).toBe(hook.id);
    });
  });
