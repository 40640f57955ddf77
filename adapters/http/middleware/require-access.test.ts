import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../../core/domain/actor.js';
import { forbidden } from '../../../core/domain/errors.js';
import { err, ok } from '../../../core/domain/result.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { FailureResponse } from '../failures.js';
import { signInSchema } from '../schemas/accounts.schemas.js';
import { jsonBody, queryInput } from '../validation.js';
import { requireAccess } from './require-access.js';

const actor = { user: { id: 'u1' } } as unknown as Actor;

/** A route that reads a body, with or without the access check in front of it, for a caller who may or may not. */
const app = (guarded: boolean, allowed: boolean) => {
  const useCases = {
    checkAccess: async () => (allowed ? ok(undefined) : err(forbidden('no'))),
  } as unknown as HttpDeps['useCases'];
  const may = requireAccess({ useCases })({ to: 'administration' });
  const read = async (c: Context<AppEnv>) => {
    await jsonBody(c, signInSchema);
    queryInput(c, signInSchema);
    return c.body(null, 204);
  };
  const hono = new Hono<AppEnv>().use(async (c, next) => {
    c.set('actor', actor);
    await next();
  });
  if (guarded) hono.post('/x', may, read);
  else hono.post('/x', read);
  hono.onError((error) =>
    error instanceof FailureResponse
      ? new Response(error.failure.code, { status: 499 })
      : new Response(error.message, { status: 500 }),
  );
  return hono;
};

const post = (hono: Hono<AppEnv>) =>
  hono.request('/x?email=a@example.com&password=p', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"unfinished": ',
  });

describe('requireAccess', () => {
  it('refuses a caller who may not act before the body is read', async () => {
    const res = await post(app(true, false));
    expect(await res.text()).toBe('auth.forbidden');
  });

  it('lets the route read its input once the caller may act', async () => {
    const res = await post(app(true, true));
    expect(await res.text()).toBe('http.bad_request');
  });

  it("is a bug for a signed-in caller's input to be read without it", async () => {
    const res = await post(app(false, true));
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/reads its input before requireAccess/);
  });
});
