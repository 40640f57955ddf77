import * as v from 'valibot';
import { OPERATIONS } from '../../adapters/http/openapi/operations/index.js';
import type { TestInstance } from '../support/http.js';
import type { TestActor } from './actors.js';
import type { GraphqlCase } from './graphql-operations.js';
import { type MatrixFixtures, ROUTES, type RouteCase } from './routes.js';

/** What a caller got: the status, and the error type (REST `meta.type`, GraphQL `extensions.code`). */
export interface Outcome {
  readonly status: number;
  readonly type?: string;
}

/** What the OpenAPI document says each REST route answers, by `METHOD route`. */
const ANSWERS = new Map<string, v.GenericSchema>(
  OPERATIONS.flatMap((op) => (op.answer && !op.root ? [[`${op.method} ${op.path}`, op.answer] as const] : [])),
);

/** A success must hold what the document says it does: every caller's answer is checked. */
const checkAnswer = (route: RouteCase, status: number, data: unknown) => {
  const answer = route.mount === undefined ? ANSWERS.get(`${route.method} ${route.route}`) : undefined;
  // 204 has no body to check (a wait for a test event that saw none answers it beside its 200).
  if (!answer || status < 200 || status >= 300 || status === 204) return;
  const parsed = v.safeParse(answer, data);
  if (!parsed.success) {
    throw new Error(
      `${route.method} ${route.route} answered against its OpenAPI schema: ${v.summarize(parsed.issues)}`,
    );
  }
};

export const call = async (
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
  checkAnswer(route, res.status, res.body?.data);
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
export const callGraphql = async (instance: TestInstance, op: GraphqlCase, actor: TestActor, variables: unknown) => {
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
export const asGraphql = (status: number) => (status >= 200 && status < 300 ? 200 : status);
export const mirrorOf = (op: GraphqlCase): RouteCase => {
  const route = ROUTES.find((r) => `${r.method} ${r.route}` === op.mirrors);
  if (!route) throw new Error(`${op.field} mirrors ${op.mirrors}, which the matrix does not list`);
  return route;
};
