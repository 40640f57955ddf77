import { describe, expect, it } from 'vitest';
import { remoteMessageOf } from './http-errors.js';

describe('remoteMessageOf', () => {
  it("finds the vendor's words in the usual error shapes", () => {
    expect(remoteMessageOf({ error: 'invalid_grant', error_description: 'Code expired' })).toBe('Code expired');
    expect(remoteMessageOf({ object: 'error', code: 'validation_error', message: 'Bad title' })).toBe('Bad title');
    expect(remoteMessageOf({ error: { type: 'INVALID_REQUEST', message: 'Unknown field' } })).toBe('Unknown field');
    expect(remoteMessageOf({ errors: [{ message: 'project: Not a valid gid', help: 'see docs' }] })).toBe(
      'project: Not a valid gid',
    );
    expect(remoteMessageOf({ err: 'Token invalid', ECODE: 'OAUTH_025' })).toBe('Token invalid');
    expect(remoteMessageOf({ reason: 'Invalid authorization code', error: 'invalid_request' })).toBe(
      'Invalid authorization code',
    );
    expect(remoteMessageOf('  invalid token\n')).toBe('invalid token');
  });

  it('falls back to the answer itself, shortened, and to nothing for an empty one', () => {
    expect(remoteMessageOf({ errors: [] })).toBe('{"errors":[]}');
    expect(remoteMessageOf('x'.repeat(400))).toHaveLength(301);
    expect(remoteMessageOf('')).toBeNull();
    expect(remoteMessageOf(null)).toBeNull();
  });

  it('reads the usual fields first', () => {
    expect(remoteMessageOf({ message: 'Not Found', errors: [{ message: 'other' }] })).toBe('Not Found');
    expect(remoteMessageOf({ error: { message: 'Nested' } })).toBe('Nested');
  });

  it("reads lists of errors: GraphQL's and REST's `errors: [{ message }]`, Jira's `errorMessages`", () => {
    expect(remoteMessageOf({ errors: [{ message: 'Entity not found' }, { message: 'Second' }] })).toBe(
      'Entity not found; Second',
    );
    expect(
      remoteMessageOf({ type: 'error.list', errors: [{ code: 'unauthorized', message: 'Access Token Invalid' }] }),
    ).toBe('Access Token Invalid');
    expect(remoteMessageOf({ errorMessages: ['Issue does not exist.'], errors: {} })).toBe('Issue does not exist.');
  });

  it("reads errors by field (Jira's `errors: { summary }`)", () => {
    expect(remoteMessageOf({ errorMessages: [], errors: { summary: 'Required.', project: 'Unknown.' } })).toBe(
      'summary: Required.; project: Unknown.',
    );
  });

  it('falls back to the JSON when no field names the error', () => {
    expect(remoteMessageOf({ errors: [], code: 7 })).toBe('{"errors":[],"code":7}');
  });

  it('reads the usual message fields first', () => {
    expect(remoteMessageOf({ error: { message: 'No such customer', type: 'invalid_request_error' } })).toBe(
      'No such customer',
    );
    expect(remoteMessageOf({ status: 'error', message: 'Object not found.' })).toBe('Object not found.');
    expect(remoteMessageOf({ success: false, error: 'Deal not found' })).toBe('Deal not found');
  });

  it("joins a list of errors' messages (Salesforce, GraphQL)", () => {
    expect(
      remoteMessageOf([
        { message: "No such column 'Foo' on entity 'Account'", errorCode: 'INVALID_FIELD' },
        { message: 'Second', errorCode: 'X' },
      ]),
    ).toBe("No such column 'Foo' on entity 'Account'; Second");
    expect(remoteMessageOf({ errors: [{ message: 'Access denied for orders field.' }], data: null })).toBe(
      'Access denied for orders field.',
    );
  });

  it("reads Rails-style errors: a text, or each field's messages (Shopify)", () => {
    expect(remoteMessageOf({ errors: '[API] Invalid API key or access token' })).toBe(
      '[API] Invalid API key or access token',
    );
    expect(remoteMessageOf({ errors: { email: ['has already been taken'], phone: 'is invalid' } })).toBe(
      'email has already been taken; phone: is invalid',
    );
  });

  it('falls back to the JSON of an answer it cannot read, and to null for none', () => {
    expect(remoteMessageOf({ code: 42 })).toBe('{"code":42}');
    expect(remoteMessageOf([1, 2])).toBe('[1,2]');
    expect(remoteMessageOf(null)).toBeNull();
    expect(remoteMessageOf('  ')).toBeNull();
  });
});

it('finds the human words in the error shapes vendors answer', () => {
  expect(remoteMessageOf({ error: 'invalid_grant', error_description: 'Code expired' })).toBe('Code expired');
  expect(remoteMessageOf({ code: 'rest_forbidden', message: 'Sorry, you are not allowed' })).toBe(
    'Sorry, you are not allowed',
  );
  expect(remoteMessageOf({ error: { message: 'No such customer', type: 'invalid_request_error' } })).toBe(
    'No such customer',
  );
  expect(remoteMessageOf({ errors: [{ message: 'Does not contain a valid address.', field: 'to' }] })).toBe(
    'Does not contain a valid address.',
  );
  expect(remoteMessageOf({ code: 'FORM_NOT_FOUND', description: 'Non existing form' })).toBe('Non existing form');
  expect(remoteMessageOf({ error: 'ERROR_TABLE_DOES_NOT_EXIST', detail: 'The table does not exist.' })).toBe(
    'The table does not exist.',
  );
  expect(remoteMessageOf({ title: 'Resource Not Found', status: 404, detail: 'The list was not found.' })).toBe(
    'The list was not found.',
  );
  expect(remoteMessageOf({ error: 'unauthorized' })).toBe('unauthorized');
});

it('falls back to the answer itself, and to nothing for an empty one', () => {
  expect(remoteMessageOf({ errors: [{ code: 7 }] })).toBe('{"errors":[{"code":7}]}');
  expect(remoteMessageOf('  ')).toBeNull();
  expect(remoteMessageOf(null)).toBeNull();
});
