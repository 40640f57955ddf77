import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { FLOW_TEST_APPS } from '../support/flow-apps.js';
import { MANAGE_ALL, READ_ALL_MANAGE_OWN } from '../support/flow-fixtures.js';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { ACTOR_KINDS, type ActorKind, actorFactory, type TestActor } from './actors.js';
import { appAdministrationFixtures } from './connection-fixtures.js';
import { templateFixtures } from './flow-resources.js';
import { type MatrixFixtures, ROUTES, type RouteCase } from './routes.js';
import { samlFixtures } from './saml-routes.js';

const call = async (instance: TestInstance, fx: MatrixFixtures, route: RouteCase, actor: TestActor, path?: string) => {
  const res = await instance.request(route.method, path ?? (await route.path(fx, actor)), {
    headers: actor.headers,
    ...(route.body && { body: route.body(fx, actor) }),
  });
  return res;
};

/**
 * Runs every route for every kind of caller and compares whole rows, so a failure shows the route
 * and every caller's status at once.
 */
const runMatrix = (label: string, env: () => Record<string, string>, licensed: boolean) => {
  describe.each(DIALECTS)(`authorization matrix, ${label} (%s)`, (dialect) => {
    let instance: TestInstance;
    let fx: MatrixFixtures;
    const standing = new Map<ActorKind, TestActor>();
    let readAllManageOwn: TestActor;
    let manageAll: TestActor;
    beforeAll(async () => {
      // Apps may reach this machine, so that verification is really attempted.
      const settings = { ...env(), ALLOW_PRIVATE_NETWORKS: 'true' };
      instance = await startTestInstance(dialect, settings, { apps: FLOW_TEST_APPS });
      const actors = await actorFactory(instance);
      fx = {
        ...actors,
        ...(await appAdministrationFixtures(actors)),
        ...(await templateFixtures(actors)),
        ...(await samlFixtures(actors)),
      };
      for (const kind of ACTOR_KINDS) standing.set(kind, await fx.make(kind));
      readAllManageOwn = await fx.makeWith(READ_ALL_MANAGE_OWN);
      manageAll = await fx.makeWith(MANAGE_ALL);
    });
    afterAll(() => instance.close());

    it.each(ROUTES.map((r) => [`${r.method} ${r.route}`, r] as const))('%s', async (_name, route) => {
      const expected: Record<string, number> = {};
      const actual: Record<string, number> = {};
      for (const kind of ACTOR_KINDS) {
        const actor = route.freshActor ? await fx.make(kind) : (standing.get(kind) as TestActor);
        const want = !licensed && route.ee && route.expect[kind] !== 401 ? 403 : route.expect[kind];
        const res = await call(instance, fx, route, actor);
        expected[kind] = want;
        actual[kind] = res.status;
        if (!licensed && route.ee && kind === 'admin') {
          expect(res.body.meta.type).toBe('EnterpriseLicenseRequiredError');
        }
      }
      const { foreign } = route;
      if (foreign && licensed) {
        const others = [
          ['foreignUser', await fx.make('user'), foreign.status],
          ['foreignReadAllManageOwn', readAllManageOwn, foreign.readAllManageOwn],
          ['foreignManageAll', manageAll, foreign.manageAll],
        ] as const;
        for (const [name, caller, status] of others) {
          if (status === undefined) continue;
          expected[name] = status;
          actual[name] = (await call(instance, fx, route, caller, await foreign.path(fx))).status;
        }
      }
      expect(actual).toEqual(expected);
    });
  });
};

runMatrix('with an enterprise licence', enterpriseEnv, true);
runMatrix('without a licence', () => ({}), false);

describe('the matrix', () => {
  it('covers every route once', () => {
    const names = ROUTES.map((r) => `${r.method} ${r.route}`);
    expect(new Set(names).size).toBe(names.length);
    // routes × callers, plus the foreign-resource checks
    const foreignChecks = ROUTES.flatMap((r) =>
      r.foreign ? [r.foreign.status, r.foreign.readAllManageOwn, r.foreign.manageAll] : [],
    ).filter((status) => status !== undefined).length;
    const size = ROUTES.length * ACTOR_KINDS.length + foreignChecks;
    process.stdout.write(
      `authorization matrix: ${ROUTES.length} routes × ${ACTOR_KINDS.length} callers = ${size} checks per run\n`,
    );
  });
});
