import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { FLOW_TEST_APPS } from '../support/flow-apps.js';
import { MANAGE_ALL, READ_ALL_MANAGE_OWN } from '../support/flow-fixtures.js';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { ACTOR_KINDS, type ActorKind, actorFactory, type TestActor } from './actors.js';
import { appAdministrationFixtures } from './connection-fixtures.js';
import { templateFixtures } from './flow-resources.js';
import { GRAPHQL_CASES, type GraphqlCase } from './graphql-operations.js';
import { type MatrixFixtures, ROUTES, type RouteCase } from './routes.js';
import { samlFixtures } from './saml-routes.js';

/** What a caller got: the status, and the error type (REST `meta.type`, GraphQL `extensions.code`). */
interface Outcome {
  readonly status: number;
  readonly type?: string;
}

const call = async (
  instance: TestInstance,
  fx: MatrixFixtures,
  route: RouteCase,
  actor: TestActor,
  path?: string,
): Promise<Outcome> => {
  const res = await instance.request(route.method, path ?? (await route.path(fx, actor)), {
    ...(route.mount !== undefined && { mount: route.mount }),
    headers: actor.headers,
    ...(route.body && { body: route.body(fx, actor) }),
  });
  return { status: res.status, type: res.body?.meta?.type };
};

/** The status API.md §3 gives each error type a GraphQL answer can carry. */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  UnauthenticatedError: 401,
  ForbiddenError: 403,
  EnterpriseLicenseRequiredError: 403,
  NotFoundError: 404,
  ValidationError: 422,
  UniqueViolationError: 422,
  ConnectionVerificationError: 422,
};

/** A GraphQL answer as the REST status it stands for: 200 for data, the error type's status otherwise. */
const callGraphql = async (instance: TestInstance, op: GraphqlCase, actor: TestActor, variables: unknown) => {
  const res = await instance.request('POST', '/graphql', {
    mount: '',
    headers: actor.headers,
    body: { query: op.query, variables },
  });
  const error = res.body?.errors?.[0];
  const type: string | undefined = error?.extensions?.code;
  if (res.status !== 200) return { status: res.status, type };
  if (!error && res.body.data?.[op.field]) return { status: 200 };
  const status = type && STATUS_OF_TYPE[type];
  if (!status) throw new Error(`${op.field}: unexpected answer ${JSON.stringify(res.body)}`);
  return { status, type };
};

/** A 2xx of REST is data in GraphQL, whichever 2xx it was. */
const asGraphql = (status: number) => (status >= 200 && status < 300 ? 200 : status);
const mirrorOf = (op: GraphqlCase): RouteCase => {
  const route = ROUTES.find((r) => `${r.method} ${r.route}` === op.mirrors);
  if (!route) throw new Error(`${op.field} mirrors ${op.mirrors}, which the matrix does not list`);
  return route;
};

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
    const graphqlChecks = GRAPHQL_CASES.map(mirrorOf).flatMap((r) =>
      r.foreign ? [r.foreign.status, r.foreign.readAllManageOwn, r.foreign.manageAll] : [],
    );
    const size =
      (ROUTES.length + GRAPHQL_CASES.length) * ACTOR_KINDS.length +
      foreignChecks +
      graphqlChecks.filter((status) => status !== undefined).length;
    process.stdout.write(
      `authorization matrix: ${ROUTES.length} routes and ${GRAPHQL_CASES.length} GraphQL fields × ${ACTOR_KINDS.length} callers = ${size} checks per run\n`,
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
