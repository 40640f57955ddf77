import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { INTERNAL_ERROR, type RenderedError, renderFailure } from '../error-table.js';
import { FailureResponse, inputFailureOf } from '../failures.js';

/** Its general messages, then `field: message` for each field, in one line. */
const messageOf = ({ errors }: RenderedError): string =>
  Object.entries(errors)
    .flatMap(([field, messages]) => (field === 'general' ? messages : messages.map((m) => `${field}: ${m}`)))
    .join(' ');

/**
 * A failure as GraphQL shows it: the message, the REST error type (API.md §3) as `extensions.code`,
 * and the per-field messages as `extensions.fields` when there are any. The error table decides
 * both, as it does for REST; only the shape differs.
 */
export const graphqlErrorOf = (rendered: RenderedError): GraphQLFormattedError => {
  const { general: _general, ...fields } = rendered.errors;
  return {
    message: messageOf(rendered),
    extensions: { code: rendered.type, ...(Object.keys(fields).length > 0 && { fields }) },
  };
};

/** What an unexpected error shows: nothing of it. The log has it, with the request id. */
export const INTERNAL_GRAPHQL_ERROR: GraphQLFormattedError = {
  message: 'Internal error',
  extensions: { code: INTERNAL_ERROR.type },
};

/** A document the parser or the validation refused, or variables that do not fit their types. */
const REQUEST_ERROR_CODE = renderFailure({ code: 'http.bad_request', message: '' }).type;

/**
 * One error of an execution result, for the response. A use case's failure is rendered from the
 * error table; an error without a path is the request's (syntax, validation, variables); anything
 * else that went wrong while resolving a field is unexpected, and `onUnexpected` gets it to log.
 */
export const formatGraphqlError = (
  error: GraphQLError,
  onUnexpected: (error: Error) => void,
): GraphQLFormattedError => {
  const where = { ...(error.locations && { locations: error.locations }), ...(error.path && { path: error.path }) };
  const original = error.originalError;
  const failure = original instanceof FailureResponse ? original.failure : inputFailureOf(original);
  if (failure) {
    const { message, extensions } = graphqlErrorOf(renderFailure(failure));
    return { message, ...where, extensions };
  }
  if (!error.path) return { message: error.message, ...where, extensions: { code: REQUEST_ERROR_CODE } };
  onUnexpected(original ?? error);
  return { message: INTERNAL_GRAPHQL_ERROR.message, ...where, extensions: INTERNAL_GRAPHQL_ERROR.extensions };
};

/** The body of an answer refused before GraphQL ran (401, 400, 405, 413, 500): the GraphQL shape. */
export const graphqlErrorBody = (error: GraphQLFormattedError) => ({ errors: [error] });
