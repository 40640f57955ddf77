import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/**
 * Every database connection busy past DATABASE_POOL_TIMEOUT_MS is a passing condition: callers get
 * 503 with Retry-After, which webhook senders retry, not a 500; once a connection is free again
 * requests are served.
 */
describe.runIf(DIALECTS.includes('postgres'))('when no Postgres connection frees up in time (postgres)', () => {
  let instance: TestInstance;
  let token: string;
  beforeAll(async () => {
    instance = await startTestInstance('postgres', { DATABASE_POOL_SIZE: '1', DATABASE_POOL_TIMEOUT_MS: '300' });
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  it('answers 503 ServiceUnavailableError with Retry-After, then serves again', async () => {
    // Outside the instance, a transaction holds the table every signed-in request reads, so the
    // instance's one connection waits on it with the first request.
    const blocker = new pg.Client({ connectionString: instance.database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table access_tokens in access exclusive mode');
      const first = instance.request('GET', '/users/me', { token });
      await new Promise((resolve) => setTimeout(resolve, 100));

      const refused = await instance.request('GET', '/users/me', { token });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toEqual({
        errors: { general: ['The server is busy. Try again in 1 seconds.'] },
        meta: { type: 'ServiceUnavailableError' },
      });

      await blocker.query('rollback');
      expect((await first).status).toBe(200);
    } finally {
      await blocker.end();
    }
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(200);
  });
});
