import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEnv } from '../support/billing.js';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { FLOW_TEST_APPS } from '../support/flow-apps.js';
import { signIn, startTestInstance, type TestInstance } from '../support/http.js';
import type { TestActor } from './actors.js';
import { asGraphql, call, callGraphql, mirrorOf } from './calls.js';
import { GRAPHQL_CASES } from './graphql-operations.js';
import { matrixFixtures } from './matrix-fixtures.js';
import { type MatrixFixtures, ROUTES } from './routes.js';

/**
 * Every guarded route and GraphQL field, called with a credential that once was, or looks like, a
 * valid one: each must answer 401. An API token whose administrator was demoted must get exactly
 * what a User gets. Counted in the same terms as matrix.test.ts: one check is one call.
 */
const GUARDED = ROUTES.filter((r) => r.expect.anonymous === 401);
const GUARDED_GRAPHQL = GRAPHQL_CASES.filter((op) => mirrorOf(op).expect.anonymous === 401);
const DAY = 24 * 60 * 60_000;

const tamper = (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The statuses of every guarded route and field for a caller, keyed by route. */
const statuses = async (instance: TestInstance, fx: MatrixFixtures, actor: TestActor, rows = GUARDED) => {
  const actual: Record<string, number> = {};
  for (const route of rows) actual[`${route.method} ${route.route}`] = (await call(instance, fx, route, actor)).status;
  for (const op of GRAPHQL_CASES.filter((o) => rows.includes(mirrorOf(o)))) {
    const variables = await op.variables(fx, actor);
    actual[`graphql ${op.field}`] = asGraphql((await callGraphql(instance, op, actor, variables)).status);
  }
  return actual;
};

const refusedEverywhere = () =>
  Object.fromEntries([
    ...GUARDED.map((r) => [`${r.method} ${r.route}`, 401]),
    ...GUARDED_GRAPHQL.map((op) => [`graphql ${op.field}`, 401]),
  ]);

/** The states a credential can be in that must not authenticate, each made on a real account. */
const STATES = [
  'a revoked session token',
  'a tampered session token (last character changed)',
  'a forged token of the right shape',
  'an over-long token',
  'a session token sent as an API token',
  'an API token sent as a session token',
  'a tampered API token',
  'a deleted API token',
  'an API token of a deleted administrator',
  'a session token of a deleted user',
  'a session token signed out by a password change',
  'e-mail and password as Basic credentials',
] as const;
type State = (typeof STATES)[number];

describe.each(DIALECTS)('credential states across the matrix (%s)', (dialect) => {
  let instance: TestInstance;
  let fx: MatrixFixtures;
  const clock = new ManualClock(new Date());
  const bad = new Map<State, TestActor>();
  let expiring: TestActor;
  let standingApiToken: TestActor;

  /** The same account, other headers: paths still name the account's own resources. */
  const withHeaders = (actor: TestActor, headers: Record<string, string>): TestActor => ({ ...actor, headers });
  const sessionToken = (actor: TestActor) => (actor.headers.authorization ?? '').replace(/^Bearer /, '');
  const email = async (actor: TestActor) =>
    (await instance.request('GET', '/users/me', { headers: actor.headers })).body.data.email as string;

  beforeAll(async () => {
    instance = await startTestInstance(
      dialect,
      // Billing on, as in matrix.test.ts, so its routes are guarded rather than absent.
      { ...enterpriseEnv(), ...billingEnv(1_000_000), ALLOW_PRIVATE_NETWORKS: 'true' },
      { apps: FLOW_TEST_APPS, clock },
    );
    fx = await matrixFixtures(instance);
    const user = await fx.make('user');
    const apiToken = await fx.make('apiToken');
    const apiKey = apiToken.headers['x-api-token'] as string;

    const revoked = await fx.make('user');
    const revokedToken = sessionToken(revoked);
    const revocation = await instance.request('DELETE', `/access-tokens/${revokedToken}`, { token: revokedToken });
    expect(revocation.status).toBe(204);
    bad.set('a revoked session token', revoked);

    bad.set('a tampered session token (last character changed)', withHeaders(user, bearer(tamper(sessionToken(user)))));
    bad.set('a forged token of the right shape', withHeaders(user, bearer(randomBytes(32).toString('base64url'))));
    bad.set('an over-long token', withHeaders(user, bearer(sessionToken(user).repeat(20))));
    bad.set('a session token sent as an API token', withHeaders(apiToken, { 'x-api-token': sessionToken(user) }));
    bad.set('an API token sent as a session token', withHeaders(apiToken, bearer(apiKey)));
    bad.set('a tampered API token', withHeaders(apiToken, { 'x-api-token': tamper(apiKey) }));

    const deletedToken = await fx.make('apiToken');
    const tokens = (await instance.request('GET', '/admin/api-tokens', { token: fx.adminToken })).body.data;
    const tokenId = tokens.find((t: { userId: string }) => t.userId === deletedToken.userId).id as string;
    expect((await instance.request('DELETE', `/admin/api-tokens/${tokenId}`, { token: fx.adminToken })).status).toBe(
      204,
    );
    bad.set('a deleted API token', deletedToken);

    const orphan = await fx.make('apiToken');
    expect((await instance.request('DELETE', `/admin/users/${orphan.userId}`, { token: fx.adminToken })).status).toBe(
      204,
    );
    // A removed account's flows no longer run: the rows the paths name are the administrator's.
    bad.set('an API token of a deleted administrator', { ...orphan, core: null });

    const gone = await fx.make('user');
    expect((await instance.request('DELETE', `/users/${gone.userId}`, { headers: gone.headers })).status).toBe(204);
    bad.set('a session token of a deleted user', { ...gone, core: null });

    const changed = await fx.make('user');
    const otherSession = await signIn(instance, await email(changed), changed.password as string);
    const change = await instance.request('PATCH', `/users/${changed.userId}/password`, {
      token: otherSession,
      body: { currentPassword: changed.password, password: 'a brand new password' },
    });
    expect(change.status).toBe(200);
    bad.set('a session token signed out by a password change', changed);

    const basic = Buffer.from(`${await email(user)}:${user.password}`).toString('base64');
    bad.set('e-mail and password as Basic credentials', withHeaders(user, { authorization: `Basic ${basic}` }));

    expiring = await fx.make('user');
    standingApiToken = apiToken;
  });
  afterAll(() => instance.close());

  it.each(STATES)('refuses %s on every guarded route and field', async (state) => {
    expect(await statuses(instance, fx, bad.get(state) as TestActor)).toEqual(refusedEverywhere());
  });

  it("gives an API token exactly a User's answers once its administrator is demoted", async () => {
    const token = await fx.make('apiToken');
    const rows = GUARDED.filter((r) => !r.freshActor);
    const roles = (await instance.request('GET', '/admin/roles', { token: fx.adminToken })).body.data;
    const userRoleId = roles.find((r: { name: string }) => r.name === 'User').id as string;
    const demotion = await instance.request('PATCH', `/admin/users/${token.userId}`, {
      token: fx.adminToken,
      body: { roleId: userRoleId },
    });
    expect(demotion.status).toBe(200);
    const core = await fx.useCases.authenticate({ kind: 'api-token', token: token.headers['x-api-token'] as string });
    expect(core?.user.role.isAdmin).toBe(false);
    const demoted: TestActor = { ...token, core };
    const expected = Object.fromEntries([
      ...rows.map((r) => [`${r.method} ${r.route}`, r.expect.user]),
      ...GRAPHQL_CASES.filter((op) => rows.includes(mirrorOf(op))).map((op) => [
        `graphql ${op.field}`,
        asGraphql(mirrorOf(op).expect.user),
      ]),
    ]);
    expect(await statuses(instance, fx, demoted, rows)).toEqual(expected);
  });

  // Last: moving the clock ages every session of this instance.
  it('refuses a session token 14 days old on every guarded route and field, and API tokens do not expire', async () => {
    expect((await instance.request('GET', '/users/me', { headers: expiring.headers })).status).toBe(200);
    clock.advance(14 * DAY + 1000);
    expect(await statuses(instance, fx, expiring)).toEqual(refusedEverywhere());
    expect((await instance.request('GET', '/users/me', { headers: standingApiToken.headers })).status).toBe(200);
  });
});

describe('the credential-state matrix', () => {
  it('reports its size', () => {
    const perState = GUARDED.length + GUARDED_GRAPHQL.length;
    const demoted =
      GUARDED.filter((r) => !r.freshActor).length +
      GRAPHQL_CASES.filter((op) => GUARDED.includes(mirrorOf(op)) && !mirrorOf(op).freshActor).length;
    const size = (STATES.length + 1) * perState + demoted;
    expect(perState).toBeGreaterThan(0);
    process.stdout.write(
      `credential-state matrix: ${GUARDED.length} guarded routes and ${GUARDED_GRAPHQL.length} GraphQL fields × ${STATES.length + 1} refused credential states + ${demoted} demoted-token checks = ${size} checks per run\n`,
    );
  });
});
