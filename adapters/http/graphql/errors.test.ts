import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { renderFailure } from '../error-table.js';
import { type Failure, FailureResponse } from '../failures.js';
import { formatGraphqlError, graphqlErrorOf } from './errors.js';

const located = (original: Error | undefined, path?: readonly (string | number)[]) =>
  new GraphQLError(original?.message ?? 'Syntax Error: Expected Name, found "}".', {
    ...(original && { originalError: original }),
    ...(path && { path }),
  });

const noUnexpected = (error: Error) => {
  throw new Error(`not expected to be unexpected: ${error.message}`);
};

describe('graphqlErrorOf', () => {
  it.each<Failure>([
    { code: 'auth.unauthenticated' },
    { code: 'auth.forbidden', reason: 'You can only change your own account.' },
    { code: 'resource.not_found', resource: 'Step' },
    { code: 'connection.verification_failed', reason: 'The key was refused.' },
    { code: 'http.method_not_allowed', allow: 'POST' },
  ])('gives $code the type and message the error table gives it', (failure) => {
    const rendered = renderFailure(failure);
    expect(graphqlErrorOf(rendered)).toEqual({
      message: rendered.errors.general?.join(' '),
      extensions: { code: rendered.type },
    });
  });

  it('names each field of a validation error, in the message and in extensions.fields', () => {
    const fields = { email: ['must be a valid e-mail address.'], 'parameters.url': ['is required.', 'is long.'] };
    expect(graphqlErrorOf(renderFailure({ code: 'input.invalid', fields }))).toEqual({
      message: 'email: must be a valid e-mail address. parameters.url: is required. parameters.url: is long.',
      extensions: { code: 'ValidationError', fields },
    });
    expect(graphqlErrorOf(renderFailure({ code: 'unique.violation', field: 'email' })).extensions).toEqual({
      code: 'UniqueViolationError',
      fields: { email: ["'email' must be unique."] },
    });
  });
});

describe('formatGraphqlError', () => {
  it("renders a use case's failure from the error table, where it happened", () => {
    const failure = new FailureResponse({ code: 'resource.not_found', resource: 'Connection' });
    expect(formatGraphqlError(located(failure, ['verifyConnection']), noUnexpected)).toEqual({
      message: 'Connection not found.',
      path: ['verifyConnection'],
      extensions: { code: 'NotFoundError' },
    });
  });

  it("keeps graphql-js's own message for an error of the request, which has no path", () => {
    expect(formatGraphqlError(located(undefined), noUnexpected)).toEqual({
      message: 'Syntax Error: Expected Name, found "}".',
      extensions: { code: 'BadRequestError' },
    });
  });

  it('shows nothing of an unexpected error and hands it to be logged', () => {
    const logged: Error[] = [];
    const bug = new Error('select password_hash from users where id = $1: connection reset');
    const formatted = formatGraphqlError(located(bug, ['updateUser']), (error) => logged.push(error));
    expect(formatted).toEqual({
      message: 'Internal error',
      path: ['updateUser'],
      extensions: { code: 'InternalError' },
    });
    expect(logged).toEqual([bug]);
  });

  it("treats graphql-js's own complaint about a resolved value as unexpected: the server is at fault", () => {
    const logged: Error[] = [];
    const complaint = new GraphQLError('Enum "StepStatus" cannot represent value: "archived"');
    const formatted = formatGraphqlError(located(complaint, ['updateStep', 'status']), (e) => logged.push(e));
    expect(formatted.message).toBe('Internal error');
    expect(logged).toEqual([complaint]);
  });
});
