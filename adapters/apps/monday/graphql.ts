import { type HttpClient, TemporaryError } from '../sdk/index.js';

interface GraphQLError {
  readonly message?: string;
  readonly extensions?: { readonly code?: string; readonly status_code?: number; readonly retry_in_seconds?: number };
}

interface GraphQLAnswer<T> {
  readonly data?: T;
  /** GraphQL's list of errors; monday's older answers list plain texts there. */
  readonly errors?: readonly (GraphQLError | string)[];
  /** monday's older error shape, still answered for some failures. */
  readonly error_message?: string;
  readonly error_code?: string;
  readonly status_code?: number;
}

const problemOf = (answer: GraphQLAnswer<unknown>) => {
  const first = answer.errors?.[0];
  if (first === undefined && answer.error_message === undefined) return null;
  const error = typeof first === 'object' ? first : undefined;
  return {
    message: (typeof first === 'string' ? first : error?.message) ?? answer.error_message ?? 'unknown error',
    code: error?.extensions?.code ?? answer.error_code,
    status: error?.extensions?.status_code ?? answer.status_code,
    retryIn: error?.extensions?.retry_in_seconds,
  };
};

/** Spent budgets pass: monday says when to try again. */
const PASSING = new Set(['COMPLEXITY_BUDGET_EXHAUSTED', 'ComplexityException', 'RATE_LIMIT_EXCEEDED']);

/**
 * One GraphQL call to monday.com, values always as variables (never written into the query). monday
 * answers application errors with status 200 and an `errors` list: they throw with its message,
 * as a TemporaryError when a budget or rate limit is spent or the server failed.
 */
export const mondayQuery = async <T>(
  http: HttpClient,
  query: string,
  variables: Readonly<Record<string, unknown>> = {},
): Promise<T> => {
  const { data } = await http.request<GraphQLAnswer<T>>({ method: 'POST', path: '/', body: { query, variables } });
  const problem = problemOf(data);
  if (problem) {
    const message = `monday.com: ${problem.message}`;
    if ((problem.code && PASSING.has(problem.code)) || problem.status === 429 || (problem.status ?? 0) >= 500) {
      throw new TemporaryError(message, problem.retryIn === undefined ? {} : { retryAfterSeconds: problem.retryIn });
    }
    throw new Error(message);
  }
  if (data.data === undefined || data.data === null) throw new Error('monday.com answered no data.');
  return data.data;
};

/**
 * Every page of a list monday pages by number (`limit`, `page`): the query takes `$page`, and
 * `items` finds the page's entries. Stops at a short page, or after `maxPages`.
 */
export const mondayPages = async <T, D>(
  http: HttpClient,
  query: string,
  variables: Readonly<Record<string, unknown>>,
  items: (data: D) => readonly T[],
  { limit = 100, maxPages = 20 } = {},
): Promise<T[]> => {
  const collected: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const found = items(await mondayQuery<D>(http, query, { ...variables, limit, page }));
    collected.push(...found);
    if (found.length < limit) break;
  }
  return collected;
};
