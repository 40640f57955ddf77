import { ClientError, GraphQLClient, type Variables } from 'graphql-request';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DialectName } from './databases.js';
import { type FlowWorld, startFlowWorld } from './flow-fixtures.js';
import { listen } from './listening.js';

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';
export const BODY_LIMIT = 16 * 1024;

export const UPDATE_STEP = `mutation UpdateStep($input: UpdateStepInput) {
  updateStep(input: $input) { id flowId type appKey key name position status parameters connectionId }
}`;
export const UPDATE_USER = `mutation UpdateUser($input: UpdateUserInput) {
  updateUser(input: $input) { id email fullName status role { name isAdmin } permissions { action subject conditions } }
}`;
export const VERIFY_CONNECTION = `mutation VerifyConnection($input: VerifyConnectionInput) {
  verifyConnection(input: $input) { id key verified formattedData { screenName } }
}`;
export const CURRENT_USER = 'query { currentUser { id email fullName } }';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly data?: any;
  readonly errors?: readonly any[];
}

/** A GraphQL client of the listening server; `errorPolicy: 'all'` hands back data and errors together. */
export const clientOf = (url: string, headers: Record<string, string> = {}, method: 'POST' | 'GET' = 'POST') =>
  new GraphQLClient(`${url}/graphql`, { headers, errorPolicy: 'all', method });

/** The whole answer as a client gets it, whether graphql-request reports it as a success or throws it. */
export const answer = async (run: () => Promise<any>): Promise<Answer> => {
  try {
    const { status, headers, data, errors } = await run();
    return { status, headers, data, errors };
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    const { status, headers, data, errors } = error.response;
    return { status, headers, data, errors };
  }
};

/**
 * A flow world (test/support/flow-fixtures.ts) with a listening server, for a GraphQL suite: the
 * world and its address once \`beforeAll\` has run, and the requests the suites make.
 */
export const graphqlWorld = (dialect: DialectName) => {
  let world: FlowWorld;
  let url: string;
  let closeServer: () => Promise<void>;
  beforeAll(async () => {
    world = await startFlowWorld(dialect, { BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    ({ url, close: closeServer } = await listen(world.instance));
  });
  afterAll(async () => {
    await closeServer();
    await world.close();
  });

  const as = (token: string) => clientOf(url, { authorization: `Bearer ${token}` });
  const send = (token: string, query: string, variables?: Variables) =>
    answer(() => as(token).rawRequest(query, variables));
  /** The one error of a field that failed, with the field's data null. */
  const fieldError = (res: Answer, field: string) => {
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ [field]: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0].path).toEqual([field]);
    return res.errors?.[0];
  };
  /** The one error of a request GraphQL refused before running it: no data at all. */
  const requestError = (res: Answer) => {
    expect(res.status).toBe(200);
    expect(res.data).toBeUndefined();
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0].extensions).toEqual({ code: 'BadRequestError' });
    return res.errors?.[0].message as string;
  };
  /** Bob's request as written, for what a GraphQL client would not send. */
  const raw = async (init: RequestInit & { headers?: Record<string, string> }, search = ''): Promise<Answer> => {
    const res = await fetch(`${url}/graphql${search}`, {
      ...init,
      headers: { authorization: `Bearer ${world.bob.token}`, ...init.headers },
    });
    return { status: res.status, headers: res.headers, ...((await res.json()) as object) };
  };
  const restStep = async (token: string, flowId: string, stepId: string) =>
    (await world.call('GET', `/flows/${flowId}`, token)).steps.find((s: { id: string }) => s.id === stepId);

  return {
    get world() {
      return world;
    },
    get url() {
      return url;
    },
    as,
    send,
    fieldError,
    requestError,
    raw,
    restStep,
  };
};
