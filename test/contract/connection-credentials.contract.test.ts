import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../adapters/persistence/migrate.js';
import { migrations } from '../../adapters/persistence/migrations/index.js';
import { openDatabase } from '../../adapters/persistence/open-database.js';
import { createRepositories } from '../../adapters/persistence/repositories/index.js';
import type { Credentials } from '../../core/domain/app.js';
import { createTestDatabase, DIALECTS } from '../support/databases.js';
import {
  at,
  insertUser,
  MINUTE,
  openFixture,
  openSecondPool,
  type PersistenceFixture,
  silentLogger,
  T0,
  testSecretBox,
} from './persistence-fixture.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('connection credentials (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let id: string;

  beforeEach(async () => {
    fx = await openFixture(dialect);
    id = randomUUID();
    await fx.repos.connections.insert({
      id,
      userId: await insertUser(fx.repos),
      appKey: 'test-oauth-pkce',
      oauthClientId: null,
      credentials: { accessToken: 'a-0', refreshToken: 'r-0' },
      now: T0,
    });
    await fx.repos.connections.update(id, { verified: true }, T0);
  });
  afterEach(() => fx.close());

  /** A change that takes a while (a token endpoint) and records the credentials it started from. */
  const renewal = (seen: Credentials[], next: string) => async (stored: Credentials) => {
    seen.push(stored);
    await pause(40);
    return { credentials: { ...stored, accessToken: next } };
  };

  it('are changed from what is stored, and stored sealed with the change’s time', async () => {
    const seen: Credentials[] = [];
    const stored = await fx.repos.connections.changeCredentials(id, renewal(seen, 'a-1'), () => at(MINUTE));
    expect(seen).toEqual([{ accessToken: 'a-0', refreshToken: 'r-0' }]);
    expect(stored).toEqual({ accessToken: 'a-1', refreshToken: 'r-0' });
    const found = await fx.repos.connections.findById(id);
    expect(found).toMatchObject({ credentials: stored, verified: true, updatedAt: at(MINUTE) });
    const [row] = (await sql<{ credentials: string }>`select credentials from connections`.execute(fx.handle.db)).rows;
    expect(row?.credentials).not.toContain('a-1');
  });

  it('are changed one at a time: each change starts from the one before it', async () => {
    const seen: Credentials[] = [];
    await Promise.all([
      fx.repos.connections.changeCredentials(id, renewal(seen, 'a-1'), () => T0),
      fx.repos.connections.changeCredentials(id, renewal(seen, 'a-2'), () => T0),
    ]);
    // In the order they were asked for; without the lock, both would have started from a-0.
    expect(seen.map((c) => c.accessToken)).toEqual(['a-0', 'a-1']);
    expect((await fx.repos.connections.findById(id))?.credentials.accessToken).toBe('a-2');
  });

  it('written meanwhile by a reconnection win over a change that started before it', async () => {
    const changed = fx.repos.connections.changeCredentials(id, renewal([], 'a-1'), () => T0);
    await pause(10);
    // On Postgres this write waits for the change's row lock; on SQLite it lands while the change runs.
    await fx.repos.connections.update(id, { credentials: { accessToken: 'reconnected' } }, at(MINUTE));
    const result = await changed;
    const stored = (await fx.repos.connections.findById(id))?.credentials;
    expect(stored).toEqual({ accessToken: 'reconnected' });
    // The change answers what is stored when it lost; what it wrote when the other write waited.
    expect([stored, { accessToken: 'a-1', refreshToken: 'r-0' }]).toContainEqual(result);
  });

  it('are left alone by a change that returns null, and marked unverified by one that says so', async () => {
    expect(
      await fx.repos.connections.changeCredentials(
        id,
        async () => null,
        () => at(MINUTE),
      ),
    ).toEqual({
      accessToken: 'a-0',
      refreshToken: 'r-0',
    });
    expect(await fx.repos.connections.findById(id)).toMatchObject({ verified: true, updatedAt: T0 });
    await fx.repos.connections.changeCredentials(
      id,
      async () => ({ verified: false }),
      () => at(MINUTE),
    );
    expect(await fx.repos.connections.findById(id)).toMatchObject({
      verified: false,
      credentials: { accessToken: 'a-0', refreshToken: 'r-0' },
    });
  });

  it('are not changed when the change throws, and the next change goes on', async () => {
    const failing = fx.repos.connections.changeCredentials(
      id,
      async () => {
        throw new Error('token endpoint down');
      },
      () => T0,
    );
    const next = fx.repos.connections.changeCredentials(
      id,
      async (s) => ({ credentials: { ...s, x: 1 } }),
      () => T0,
    );
    await expect(failing).rejects.toThrow('token endpoint down');
    expect(await next).toEqual({ accessToken: 'a-0', refreshToken: 'r-0', x: 1 });
  });

  it('of a connection that is gone: null, and the change is not called', async () => {
    let called = false;
    const result = await fx.repos.connections.changeCredentials(
      'no-such-connection',
      async () => {
        called = true;
        return null;
      },
      () => T0,
    );
    expect(result).toBeNull();
    expect(called).toBe(false);
  });

  it('cannot be changed inside a transaction (the change may wait on the network)', async () => {
    await expect(
      fx.uow.run(async (tx) => {
        await tx.connections.changeCredentials(
          id,
          async () => null,
          () => T0,
        );
        throw new Error('not reached');
      }),
    ).rejects.toThrow('outside');
  });

  it('keep a pending authorization’s code verifier sealed until it is cleared', async () => {
    const pending = { hash: 'state-hash', expiresAt: at(15 * MINUTE), codeVerifier: 'the-code-verifier-0123456789' };
    await fx.repos.connections.update(id, { oauthState: pending }, T0);
    expect((await fx.repos.connections.findById(id))?.oauthState).toEqual(pending);
    const [row] = (await sql<{ v: string }>`select oauth_code_verifier as v from connections`.execute(fx.handle.db))
      .rows;
    expect(row?.v).toMatch(/^v1\./);
    expect(row?.v).not.toContain('the-code-verifier');
    await fx.repos.connections.update(id, { oauthState: null }, T0);
    expect((await fx.repos.connections.findById(id))?.oauthState).toBeNull();
    const [cleared] = (
      await sql<{ v: string | null }>`select oauth_code_verifier as v from connections`.execute(fx.handle.db)
    ).rows;
    expect(cleared?.v).toBeNull();
  });

  it('of a connection verified once stay listed when a later check fails; drafts are listed when asked', async () => {
    const userId = (await fx.repos.connections.findById(id))?.userId ?? '';
    await fx.repos.connections.insert({
      id: 'draft',
      userId,
      appKey: 'test-oauth-pkce',
      oauthClientId: null,
      credentials: {},
      now: T0,
    });
    const listed = async (drafts: boolean) =>
      (await fx.repos.connections.listByApp('test-oauth-pkce', { ownerId: userId, drafts })).map((c) => [
        c.id,
        c.verified,
      ]);
    expect(await listed(false)).toEqual([[id, true]]);
    await fx.repos.connections.changeCredentials(
      id,
      async () => ({ verified: false }),
      () => T0,
    );
    expect(await listed(false)).toEqual([[id, false]]);
    expect((await listed(true)).sort()).toEqual(
      [
        ['draft', false],
        [id, false],
      ].sort(),
    );
  });

  if (dialect === 'postgres') {
    describe('across processes', () => {
      let other: ReturnType<typeof openSecondPool>;
      beforeEach(() => {
        other = openSecondPool(fx);
      });
      afterEach(() => other.close());

      it('one change at a time: the other process’s change waits, then starts from this one’s result', async () => {
        const seen: Credentials[] = [];
        await Promise.all([
          fx.repos.connections.changeCredentials(id, renewal(seen, 'a-1'), () => T0),
          other.repos.connections.changeCredentials(id, renewal(seen, 'a-2'), () => T0),
        ]);
        expect(seen).toHaveLength(2);
        expect(seen[0]?.accessToken).toBe('a-0');
        expect(['a-1', 'a-2']).toContain(seen[1]?.accessToken);
      });
    });
  }
});

describe.each(DIALECTS)('connection authorizations migration (%s)', (dialect) => {
  it('makes connections verified before it no drafts, and the others drafts', async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.url, silentLogger);
    try {
      const before = migrations.findIndex(([name]) => name === '0016-connection-authorizations');
      await migrateToLatest(handle.db, migrations.slice(0, before));
      const repos = createRepositories({ ...handle, secretBox: testSecretBox });
      const userId = await insertUser(repos);
      const row = (connectionId: string, verified: boolean) => ({
        id: connectionId,
        user_id: userId,
        app_key: 'test-oauth-pkce',
        oauth_client_id: null,
        credentials: testSecretBox.seal('{}', `connection:${connectionId}`),
        verified: handle.codec.bool(verified),
        screen_name: null,
        oauth_state_hash: null,
        oauth_state_expires_at: null,
        created_at: handle.codec.timestamp(T0),
        updated_at: handle.codec.timestamp(T0),
      });
      await handle.db
        .insertInto('connections')
        .values([row('in-use', true), row('never-verified', false)] as never)
        .execute();
      await migrateToLatest(handle.db);
      const listed = await repos.connections.listByApp('test-oauth-pkce', { ownerId: null, drafts: false });
      expect(listed.map((c) => c.id)).toEqual(['in-use']);
      expect((await repos.connections.findById('in-use'))?.oauthState).toBeNull();
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
