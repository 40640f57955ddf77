import type { Context } from 'hono';
import * as v from 'valibot';
import { invalidInput, notFound } from '../../core/domain/errors.js';
import { fail } from './failures.js';
import { parseJsonText } from './json-text.js';
import { bodyText } from './request-body.js';

/** A Map, not an object: a field may be named `constructor` or `__proto__`. */
const toFieldErrors = (issues: readonly v.BaseIssue<unknown>[]): Record<string, string[]> => {
  const fields = new Map<string, string[]>();
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? 'general';
    fields.set(path, [...(fields.get(path) ?? []), issue.message]);
  }
  return Object.fromEntries(fields);
};

/** Validates `value` against `schema`; a failure becomes a 422 with one entry per field. */
export const parseInput = <S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  return result.success ? result.output : fail(invalidInput(toFieldErrors(result.issues)));
};

/**
 * A signed-in caller's input is read only after `requireAccess` let the request through; a route
 * that forgot it would tell a caller who may not act what the input must be. A bug, so a throw.
 */
const assertAccessChecked = (c: Context) => {
  if (c.get('actor') !== undefined && c.get('accessChecked') !== true) {
    throw new Error(`${c.req.method} ${c.req.routePath} reads its input before requireAccess checked the caller.`);
  }
};

/** Validates the query string against `schema` (422 as for a body), once the caller may send it. */
export const queryInput = <S extends v.GenericSchema>(c: Context, schema: S): v.InferOutput<S> => {
  assertAccessChecked(c);
  return parseInput(schema, c.req.query());
};

const isJson = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

/**
 * The JSON value of a request body, or `undefined` when the body is empty. A body that is not JSON
 * (by its content type or its text) is a 400.
 */
export const readJson = async (c: Context): Promise<unknown> => {
  assertAccessChecked(c);
  const text = await bodyText(c);
  if (text.trim() === '') return undefined;
  if (!isJson(c.req.header('content-type') ?? '')) {
    return fail({
      code: 'http.bad_request',
      message: 'The request body must be JSON (Content-Type: application/json).',
    });
  }
  return parseJsonText(text);
};

/** Reads and validates a JSON body. An empty body reads as `{}`, so the answer names the missing fields. */
export const jsonBody = async <S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> => {
  const body = await readJson(c);
  return parseInput(schema, body === undefined ? {} : body);
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the text is a UUID, in either case: the only form an id takes. */
export const isUuid = (value: string) => UUID.test(value);

/** An id that is not a UUID names nothing, so it is a 404 like any unknown id. */
export const idOrNotFound = (value: unknown, resource: string): string =>
  typeof value === 'string' && isUuid(value) ? value.toLowerCase() : fail(notFound(resource));

/** A path id, checked as `idOrNotFound` checks it. */
export const idParam = (c: Context, name: string, resource: string): string =>
  idOrNotFound(c.req.param(name) ?? '', resource);
