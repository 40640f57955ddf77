import type { Context } from 'hono';
import * as v from 'valibot';
import { invalidInput, notFound } from '../../core/domain/errors.js';
import { fail } from './failures.js';

const toFieldErrors = (issues: readonly v.BaseIssue<unknown>[]) => {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? 'general';
    fields[path] = [...(fields[path] ?? []), issue.message];
  }
  return fields;
};

/** Validates `value` against `schema`; a failure becomes a 422 with one entry per field. */
export const parseInput = <S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  return result.success ? result.output : fail(invalidInput(toFieldErrors(result.issues)));
};

const isJson = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

/**
 * Reads and validates a JSON body. An empty body reads as `{}`, so the answer names the missing
 * fields; a body that is not JSON is a 400.
 */
export const jsonBody = async <S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> => {
  const text = await c.req.text();
  if (text.trim() === '') return parseInput(schema, {});
  if (!isJson(c.req.header('content-type') ?? '')) {
    return fail({
      code: 'http.bad_request',
      message: 'The request body must be JSON (Content-Type: application/json).',
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail({ code: 'http.bad_request', message: 'The request body is not valid JSON.' });
  }
  return parseInput(schema, body);
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing, so it is a 404 like any unknown id. */
export const idParam = (c: Context, name: string, resource: string): string => {
  const value = c.req.param(name) ?? '';
  return UUID.test(value) ? value.toLowerCase() : fail(notFound(resource));
};
