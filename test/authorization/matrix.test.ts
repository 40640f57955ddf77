import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEnv } from '../support/billing.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { FLOW_TEST_APPS } from '../support/flow-apps.js';
import { MANAGE_ALL, READ_ALL_MANAGE_OWN } from '../support/flow-fixtures.js';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { ACTOR_KINDS, type ActorKind, type TestActor } from './actors.js';
import { asGraphql, call, callGraphql, mirrorOf, type Outcome } from './calls.js';
import { GRAPHQL_CASES } from './graphql-operations.js';
import { matrixFixtures } from './matrix-fixtures.js';
import { type MatrixFixtures, ROUTES, type RouteCase } from './routes.js';

/** Statuses that must come before any word about the body: who may not, or what does not exist. */
const REFUSALS = new Set([401, 403, 404]);
const BAD_BODIES = [
  { label: 'a body of the wrong shape', body: 42, status: 422 },
  { label: 'a body that is not JSON', body: '{"unfinished": ', status: 400 },
] as const;

const BAD_QUERY = 'page=0&perPage=1000&status=bogus&startDateTime=yesterday&onlyWithTriggers=maybe&folderId=x';
/** Stands for any answer that is not a refusal: the data, or what is wrong with the query. */
const ANSWERED = 0;

/** Runs every REST route and every GraphQL field for every kind of caller. */
const runMatrix = (label: string, env: () => Record<string, string>, licensed: boolean) => {
  describe.each(DIALECTS)(`authorization matrix, ${label} (%s)`, (dialect) => {
    let instance: TestInstance;
    let fx: MatrixFixtures;
    const standing = new Map<ActorKind, TestActor>();
    let readAllManageOwn: TestActor;
    let manageAll: TestActor;
    beforeAll(async () => {
      // Apps may reach this machine, so that verification is really attempted.
      const settings = { ...env(), ...billingEnv(1_000_000), ALLOW_PRIVATE_NETWORKS: 'true' };
      instance = await startTestInstance(dialect, settings, { apps: FLOW_TEST_APPS });
      fx = await matrixFixtures(instance);
      for (const kind of ACTOR_KINDS) standing.set(kind, await fx.make(kind));
      readAllManageOwn = await fx.makeWith(READ_ALL_MANAGE_OWN);
      manageAll = await fx.makeWith(MANAGE_ALL);
    });
    afterAll(() => instance.close());

    /**
     * Calls as every kind of caller, then as the callers of the foreign checks, and compares whole
     * rows, so a failure shows every caller's status at once.
     */
    const checkRow = async (
      row: Pick<RouteCase, 'expect' | 'ee' | 'freshActor' | 'foreign'>,
      callAs: (actor: TestActor, foreign: boolean) => Promise<Outcome>,
      expectation: (status: number) => number = (status) => status,
    ) => {
      const expected: Record<string, number> = {};
      const actual: Record<string, number> = {};
      for (const kind of ACTOR_KINDS) {
        const actor = row.freshActor ? await fx.make(kind) : (standing.get(kind) as TestActor);
        const want = !licensed && row.ee && row.expect[kind] !== 401 ? 403 : row.expect[kind];
        const outcome = await callAs(actor, false);
        expected[kind] = expectation(want);
        actual[kind] = outcome.status;
        if (!licensed && row.ee && kind === 'admin') {
          expect(outcome.type).toBe('EnterpriseLicenseRequiredError');
        }
      }
      const { foreign } = row;
      if (foreign && licensed) {
        const others = [
          ['foreignUser', await fx.make('user'), foreign.status],
          ['foreignReadAllManageOwn', readAllManageOwn, foreign.readAllManageOwn],
          ['foreignManageAll', manageAll, foreign.manageAll],
        ] as const;
        for (const [name, caller, status] of others) {
          if (status === undefined) continue;
          expected[name] = expectation(status);
          actual[name] = (await callAs(caller, true)).status;
        }
      }
      expect(actual).toEqual(expected);
    };

    it.each(ROUTES.map((r) => [`${r.method} ${r.route}`, r] as const))('%s', (_name, route) =>
      checkRow(route, async (actor, foreign) =>
        call(instance, fx, route, actor, foreign && route.foreign ? await route.foreign.path(fx) : undefined),
      ),
    );

    /**
     * The same callers with a body that is JSON of the wrong shape, and one that is not JSON at all:
     * whoever was refused (401, 403) or told the resource does not exist (404) is told the same
     * again, before anything about the body; whoever may act learns what is wrong with it.
     */
    it.each(
      ROUTES.filter((r) => r.body).flatMap((r) =>
        BAD_BODIES.map((bad) => [`${r.method} ${r.route} with ${bad.label}`, r, bad] as const),
      ),
    )('%s', (_name, route, bad) =>
      checkRow(
        route,
        async (actor, foreign) =>
          call(
            instance,
            fx,
            { ...route, body: () => bad.body },
            actor,
            foreign && route.foreign ? await route.foreign.path(fx) : undefined,
          ),
        (status) => (REFUSALS.has(status) ? status : bad.status),
      ),
    );

    /**
     * Reading routes with a query string no list accepts: a caller who was refused is refused the
     * same; one who may read gets an answer (the page, or 422 naming the bad parameters), never a 5xx.
     */
    it.each(
      ROUTES.filter((r) => r.method === 'GET').map((r) => [`${r.method} ${r.route} with a bad query`, r] as const),
    )('%s', (_name, route) =>
      checkRow(
        route,
        async (actor, foreign) => {
          const path = foreign && route.foreign ? await route.foreign.path(fx) : await route.path(fx, actor);
          const outcome = await call(
            instance,
            fx,
            route,
            actor,
            `${path}${path.includes('?') ? '&' : '?'}${BAD_QUERY}`,
          );
          const refused = REFUSALS.has(outcome.status) || outcome.status >= 500;
          return { ...outcome, status: refused ? outcome.status : ANSWERED };
        },
        (status) => (REFUSALS.has(status) ? status : ANSWERED),
      ),
    );

    it.each(GRAPHQL_CASES.map((op) => [`POST /graphql ${op.field}, as ${op.mirrors}`, op] as const))(
      '%s',
      (_name, op) =>
        checkRow(
          mirrorOf(op),
          async (actor, foreign) =>
            callGraphql(
              instance,
              op,
              actor,
              foreign && op.foreignVariables ? await op.foreignVariables(fx) : await op.variables(fx, actor),
            ),
          asGraphql,
        ),
    );

    it.each(
      GRAPHQL_CASES.filter((op) => op.invalid).map(
        (op) => [`POST /graphql ${op.field} with an invalid input, as ${op.mirrors}`, op] as const,
      ),
    )('%s', (_name, op) =>
      checkRow(
        mirrorOf(op),
        async (actor, foreign) => {
          const variables =
            foreign && op.foreignVariables ? await op.foreignVariables(fx) : await op.variables(fx, actor);
          const input = variables.input as Record<string, unknown>;
          return callGraphql(instance, op, actor, { input: op.invalid?.(input) });
        },
        (status) => (REFUSALS.has(status) ? status : 422),
      ),
    );
  });
};

runMatrix('with an enterprise licence', enterpriseEnv, true);
runMatrix('without a licence', () => ({}), false);

describe('the matrix', () => {
  it('covers every route once', () => {
    const names = ROUTES.map((r) => `${r.method} ${r.route}`);
    expect(new Set(names).size).toBe(names.length);
    // each row's callers, plus its foreign-resource checks; a row with a body runs once per bad body too
    const checksOf = (r: RouteCase) =>
      ACTOR_KINDS.length +
      (r.foreign ? [r.foreign.status, r.foreign.readAllManageOwn, r.foreign.manageAll] : []).filter(
        (status) => status !== undefined,
      ).length;
    const restChecks = ROUTES.reduce((sum, r) => sum + checksOf(r) * (r.body ? 1 + BAD_BODIES.length : 1), 0);
    const size = restChecks + GRAPHQL_CASES.map(mirrorOf).reduce((sum, r) => sum + checksOf(r), 0);
    const withBodies = ROUTES.filter((r) => r.body).length;
    process.stdout.write(
      `authorization matrix: ${ROUTES.length} routes (${withBodies} also with ${BAD_BODIES.length} bad bodies) and ${GRAPHQL_CASES.length} GraphQL fields, ${ACTOR_KINDS.length} callers each: ${size} checks per run\n`,
    );
  });

  it("checks each GraphQL field against another user's resource where its REST route is", () => {
    for (const op of GRAPHQL_CASES) {
      expect({ field: op.field, foreign: op.foreignVariables !== undefined }).toEqual({
        field: op.field,
        foreign: mirrorOf(op).foreign !== undefined,
      });
    }
  });
});
