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

  it('answers 503 when the server ends the connection under a query (a restart), then serves again', async () => {
    const blocker = new pg.Client({ connectionString: instance.database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table access_tokens in access exclusive mode');
      const cut = instance.request('GET', '/users/me', { token });
      // The instance's query waits on the lock; the server then ends its connection, as a restart or
      // an administrator's shutdown does (57P01).
      let terminated = 0;
      for (let i = 0; i < 100 && terminated === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        terminated = (
          await blocker.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
          )
        ).rowCount as number;
      }
      expect(terminated).toBe(1);
      const refused = await cut;
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ meta: { type: 'ServiceUnavailableError' } });
      await blocker.query('rollback');
    } finally {
      await blocker.end();
    }
    // The pool replaces the ended connection; until it has, callers get 503 with Retry-After, as above.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await instance.request('GET', '/users/me', { token })).status;
      expect([200, 503]).toContain(status);
    }
    expect(status).toBe(200);
  });
});
