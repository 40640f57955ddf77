import { type AppContext, HttpError, TemporaryError } from '../sdk/index.js';

interface GraphQLError {
  readonly message?: string;
  readonly extensions?: { readonly code?: string; readonly userPresentableMessage?: string };
}

interface Answer<T> {
  readonly data?: T | null;
  readonly errors?: readonly GraphQLError[];
}

/** Linear refused the operation; `messages` are its own (`Entity not found: Webhook`). */
export class LinearError extends Error {
  override readonly name = 'LinearError';
  constructor(
    message: string,
    readonly messages: readonly string[],
  ) {
    super(message);
  }
}

/** Linear's reset header: when the request budget refills, in epoch milliseconds. */
const secondsUntil = (resetMs: string | undefined): number | undefined => {
  const at = Number(resetMs);
  return Number.isFinite(at) && at > 0 ? Math.max(1, Math.ceil((at - Date.now()) / 1000)) : undefined;
};

/**
 * One GraphQL operation against Linear. Linear reports failures in `errors` (often with status
 * 200, or 400): a rate limit (`RATELIMITED`) is a TemporaryError, retried after the reset; any
 * other error fails the step with Linear's words (its user-presentable message first).
 */
export const linearGraphql = async <T>(
  ctx: Pick<AppContext<unknown>, 'http'>,
  query: string,
  variables: Readonly<Record<string, unknown>> = {},
): Promise<T> => {
  const response = await ctx.http.request<Answer<T> | string | null>({
    method: 'POST',
    path: '/graphql',
    body: { query, variables },
    throwHttpErrors: 'retryable',
  });
  const answer = typeof response.data === 'object' ? response.data : null;
  const errors = answer?.errors ?? [];
  if (errors.length > 0) {
    const words = errors.map((e) => e.extensions?.userPresentableMessage ?? e.message ?? 'unknown error').join('; ');
    if (errors.some((e) => e.extensions?.code === 'RATELIMITED')) {
      const retryAfterSeconds = secondsUntil(response.headers['x-ratelimit-requests-reset']);
      throw new TemporaryError(`Linear: ${words}`, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    }
    throw new LinearError(
      `Linear: ${words}`,
      errors.map((e) => e.message ?? ''),
    );
  }
  if (response.status >= 400 || !answer?.data) {
    throw new HttpError(response.status, 'POST', '/graphql', response.data, null);
  }
  return answer.data;
};

export interface Connection<N> {
  readonly nodes: readonly N[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor?: string | null };
}

/**
 * Every node of a connection (Relay-style `first`/`after` pagination), up to 1,000: `query` takes
 * `$after` and answers the connection at `pick(data)`.
 */
export const allNodes = async <T, N>(
  ctx: Pick<AppContext<unknown>, 'http'>,
  query: string,
  variables: Readonly<Record<string, unknown>>,
  pick: (data: T) => Connection<N>,
): Promise<N[]> => {
  const nodes: N[] = [];
  let after: string | null = null;
  for (let page = 0; page < 20 && nodes.length < 1000; page++) {
    const connection = pick(await linearGraphql<T>(ctx, query, { ...variables, after }));
    nodes.push(...connection.nodes);
    if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) break;
    after = connection.pageInfo.endCursor;
  }
  return nodes;
};

/** What Linear answers of an issue, in triggers and actions alike. */
export const ISSUE_FIELDS = `
  id identifier title description priority priorityLabel url createdAt updatedAt
  state { id name type } team { id key name } assignee { id name email }
  labels { nodes { id name } }
`;
