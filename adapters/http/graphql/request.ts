import * as v from 'valibot';
import { fail } from '../failures.js';
import { jsonObject } from '../schemas/fields.js';

/** A GraphQL-over-HTTP request: one document, the operation to run in it, its variables. */
export interface GraphqlRequest {
  readonly query: string;
  readonly operationName?: string | null | undefined;
  readonly variables?: Readonly<Record<string, unknown>> | null | undefined;
}

const NOT_A_REQUEST = 'The body must be a JSON object with a "query" string.';

export const graphqlRequestSchema = v.object(
  {
    query: v.string('must be a string: the GraphQL document.'),
    operationName: v.optional(v.nullable(v.string('must be a string or null.'))),
    variables: v.optional(v.nullable(jsonObject)),
    extensions: v.optional(v.nullable(jsonObject)),
  },
  // Called for the body itself, and for a key the body lacks (only `query` is required).
  (issue) => (issue.path ? 'is required: the GraphQL document, as a string.' : NOT_A_REQUEST),
);

const badRequest = (message: string) => fail({ code: 'http.bad_request', message });

/** The request in a JSON body (`undefined` when empty); anything else is a 400 that says what to send. */
export const graphqlRequest = (body: unknown): GraphqlRequest => {
  if (Array.isArray(body)) return badRequest('Batched requests are not supported: send one operation per request.');
  const parsed = v.safeParse(graphqlRequestSchema, body ?? null, { abortEarly: true });
  if (parsed.success) return parsed.output;
  const [issue] = parsed.issues;
  const key = issue.path?.[0]?.key;
  return badRequest(key === undefined ? issue.message : `"${String(key)}" ${issue.message}`);
};
