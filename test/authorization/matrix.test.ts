import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { ACTOR_KINDS, type ActorKind, actorFactory, type TestActor } from './actors.js';
import { appAdministrationFixtures } from './connection-fixtures.js';
import { type MatrixFixtures, ROUTES, type RouteCase } from './routes.js';

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
    beforeAll(async () => {
      // Apps may reach this machine, so that verification is really attempted.
      instance = await startTestInstance(dialect, { ...env(), ALLOW_PRIVATE_NETWORKS: 'true' });
      const actors = await actorFactory(instance);
      fx = { ...actors, ...(await appAdministrationFixtures(actors)) };
      for (const kind of ACTOR_KINDS) standing.set(kind, await fx.make(kind));
    });
    afterAll(() => instance.close());

    it.each(ROUTES.map((r) => [`${r.method} ${r.route}`, r] as const))('%s', async (_name, route) => {
      const expected: Record<string, number> = {};
      const actual: Record<string, number> = {};
      for (const kind of ACTOR_KINDS) {
        const actor = route.freshActor ? await fx.make(kind) : (standing.get(kind) as TestActor);
        const want = !licensed && route.ee && kind !== 'anonymous' ? 403 : route.expect[kind];
        const res = await call(instance, fx, route, actor);
        expected[kind] = want;
        actual[kind] = res.status;
        if (!licensed && route.ee && kind === 'admin') {
          expect(res.body.meta.type).toBe('EnterpriseLicenseRequiredError');
        }
      }
      if (route.foreign && licensed) {
        const user = await fx.make('user');
        expected.foreignUser = route.foreign.status;
        actual.foreignUser = (await call(instance, fx, route, user, await route.foreign.path(fx))).status;
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
    const size = ROUTES.length * ACTOR_KINDS.length + ROUTES.filter((r) => r.foreign).length;
    process.stdout.write(
      `authorization matrix: ${ROUTES.length} routes × ${ACTOR_KINDS.length} callers = ${size} checks per run\n`,
    );
  });
});
