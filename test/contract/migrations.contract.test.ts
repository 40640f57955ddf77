import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_TABLE, migrateToLatest } from '../../adapters/persistence/migrate.js';
import { migrations } from '../../adapters/persistence/migrations/index.js';
import { type DatabaseHandle, openDatabase } from '../../adapters/persistence/open-database.js';
import { createRepositories } from '../../adapters/persistence/repositories/index.js';
import { createTestDatabase, DIALECTS } from '../support/databases.js';
import { insertUser, openFixture, silentLogger, testSecretBox } from './persistence-fixture.js';

/** Row counts of the seeded tables and of the migrator's own bookkeeping. */
const census = async ({ db }: DatabaseHandle) => {
  const count = async (table: string) => {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    return Number(rows[0]?.n);
  };
  const admins = await db.selectFrom('roles').select('id').where('name', '=', 'Admin').execute();
  return {
    adminRoles: admins.length,
    roles: await count('roles'),
    permissions: await count('permissions'),
    config: await count('config'),
    applied: await count(MIGRATIONS_TABLE),
  };
};

/**
 * Whether the database's own schema has the table. Not Kysely's introspection: on Postgres it asks
 * has_schema_privilege of every schema, which throws when another test drops its schema meanwhile.
 */
const hasTable = ({ db }: DatabaseHandle, name: string) =>
  sql`select 1 from ${sql.table(name)} where 1 = 0`.execute(db).then(
    () => true,
    () => false,
  );

// Five per role (0001), the Admin role's two of agents (0017) and two of MCP servers (0019).
const SEEDED = { adminRoles: 1, roles: 2, permissions: 14, config: 1, applied: migrations.length };

describe.each(DIALECTS)('migrations contract (%s)', (dialect) => {
  it('seeds the roles, their permissions and the config row once', async () => {
    const fx = await openFixture(dialect);
    try {
      expect(await census(fx.handle)).toEqual(SEEDED);
      const admin = await fx.repos.roles.findByName('Admin');
      const user = await fx.repos.roles.findByName('User');
      expect(admin?.isAdmin).toBe(true);
      expect(user?.isAdmin).toBe(false);
      expect(admin?.permissions.every((p) => p.conditions.length === 0)).toBe(true);
      expect(user?.permissions.every((p) => p.conditions.join() === 'isCreator')).toBe(true);
      // Agents are the Admin role's alone, as Automatisch's seed gives them.
      const agentRights = (role: typeof admin) => role?.permissions.filter((p) => p.subject === 'Agent');
      expect(agentRights(admin)).toEqual([
        { action: 'manage', subject: 'Agent', conditions: [] },
        { action: 'read', subject: 'Agent', conditions: [] },
      ]);
      expect(agentRights(user)).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('does nothing when run again, and keeps the data', async () => {
    const fx = await openFixture(dialect);
    try {
      const id = await insertUser(fx.repos, { email: 'kept@example.com' });
      await fx.repos.config.update({ registrationEnabled: true }, new Date('2026-03-01T12:00:00.000Z'));
      await migrateToLatest(fx.handle.db);
      await migrateToLatest(fx.handle.db);
      expect(await census(fx.handle)).toEqual(SEEDED);
      expect((await fx.repos.users.findById(id))?.email).toBe('kept@example.com');
      expect(await fx.repos.config.get()).toMatchObject({ installationCompleted: false, registrationEnabled: true });
    } finally {
      await fx.close();
    }
  });

  it('runs each migration once when started concurrently', async () => {
    const testDb = await createTestDatabase(dialect);
    // SQLite's `:memory:` database is private to its handle, so there the concurrency is within
    // one handle; on Postgres two pools race on the same schema, as two processes would.
    const first = openDatabase(testDb.url, silentLogger);
    const second = dialect === 'postgres' ? openDatabase(testDb.url, silentLogger) : first;
    try {
      await Promise.all([migrateToLatest(first.db), migrateToLatest(second.db)]);
      expect(await census(first)).toEqual(SEEDED);
      expect(await census(second)).toEqual(SEEDED);
      const repos = createRepositories({ ...first, secretBox: testSecretBox });
      expect((await repos.roles.findByName('Admin'))?.permissions).toHaveLength(9);
    } finally {
      await first.close();
      if (second !== first) await second.close();
      await testDb.drop();
    }
  });
});

describe.each(DIALECTS)('role names migration (%s)', (dialect) => {
  it('renames roles whose names clash without regard to case, then refuses such a clash', async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.url, silentLogger);
    try {
      const before = migrations.findIndex(([name]) => name === '0010-role-names');
      await migrateToLatest(handle.db, migrations.slice(0, before));
      const role = (id: string, name: string, createdAt: string) => ({
        id,
        name,
        description: null,
        is_admin: handle.codec.bool(false),
        created_at: createdAt,
        updated_at: createdAt,
      });
      await handle.db
        .insertInto('roles')
        .values([
          role('r1', 'Ops', '2026-01-01T00:00:00.000Z'),
          role('r2', 'ops', '2026-01-02T00:00:00.000Z'),
          role('r3', 'OPS (2)', '2026-01-03T00:00:00.000Z'),
          role('r4', 'OPS', '2026-01-04T00:00:00.000Z'),
          role('r5', 'user', '2026-01-05T00:00:00.000Z'),
        ])
        .execute();

      await migrateToLatest(handle.db);
      const names = Object.fromEntries(
        (await handle.db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.id, r.name]),
      );
      // The oldest keeps its name; the built-in roles are older than any an administrator made.
      expect(names).toMatchObject({ r1: 'Ops', r2: 'ops (3)', r3: 'OPS (2)', r4: 'OPS (4)', r5: 'user (2)' });
      expect(await handle.db.selectFrom('roles').select('id').where('name', '=', 'User').execute()).toHaveLength(1);
      await expect(
        handle.db
          .insertInto('roles')
          .values(role('r6', 'oPs', '2026-01-06T00:00:00.000Z'))
          .execute(),
      ).rejects.toThrow();
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe.runIf(DIALECTS.includes('postgres'))('migrations contract on a shared Postgres database', () => {
  it('migrates a fresh schema while another schema of the same database is already migrated', async () => {
    // Every suite gets its own schema on one test database, and a production database may hold
    // other applications' schemas: the migrator must look only at its own schema.
    const neighbour = await openFixture('postgres');
    const testDb = await createTestDatabase('postgres');
    const handle = openDatabase(testDb.url, silentLogger);
    try {
      await migrateToLatest(handle.db);
      expect(await census(handle)).toEqual(SEEDED);
    } finally {
      await handle.close();
      await testDb.drop();
      await neighbour.close();
    }
  });
});

describe.each(DIALECTS)('the migration runner (%s)', (dialect) => {
  it('applies pending migrations all or nothing', async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.url, silentLogger);
    try {
      const good = { up: (db: any) => db.schema.createTable('first_table').addColumn('id', 'integer').execute() };
      const bad = {
        up: async () => {
          throw new Error('boom');
        },
      };
      await expect(
        migrateToLatest(handle.db, [
          ['a-good', good],
          ['b-bad', bad],
        ]),
      ).rejects.toThrow('Migration b-bad failed: boom');
      expect(await hasTable(handle, 'first_table')).toBe(false);
      await migrateToLatest(handle.db, [['a-good', good]]);
      expect(await hasTable(handle, 'first_table')).toBe(true);
      // A build that does not know an applied migration refuses to run against that database.
      await expect(migrateToLatest(handle.db, [])).rejects.toThrow(/does not know \(a-good\)/);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe.each(DIALECTS)('flow versions migration (%s)', (dialect) => {
  it('gives each published flow version 1, its steps as they are, and its unfinished runs that version', async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.url, silentLogger);
    try {
      const before = migrations.findIndex(([name]) => name === '0011-flow-versions');
      await migrateToLatest(handle.db, migrations.slice(0, before));
      const { codec, db } = handle;
      const at = '2026-01-01T00:00:00.000Z';
      await db
        .insertInto('users')
        .values({
          id: 'u1',
          full_name: 'Ada',
          email: 'ada@example.com',
          password_hash: null,
          role_id: (await db.selectFrom('roles').select('id').where('name', '=', 'Admin').executeTakeFirstOrThrow()).id,
          status: 'active',
          created_at: at,
          updated_at: at,
        } as never)
        .execute();
      const flow = (id: string, active: boolean) => ({
        id,
        user_id: 'u1',
        folder_id: null,
        name: `Flow ${id}`,
        active: codec.bool(active),
        published_at: active ? at : null,
        created_at: at,
        updated_at: at,
      });
      await db
        .insertInto('flows')
        .values([flow('live', true), flow('draft', false)] as never)
        .execute();
      const step = (id: string, flowId: string, position: number) => ({
        id,
        flow_id: flowId,
        type: position === 1 ? 'trigger' : 'action',
        app_key: 'webhook',
        key: 'catchRawWebhook',
        name: null,
        position,
        status: 'completed',
        parameters: codec.json({ b: 1, a: 'two' }),
        connection_id: null,
        app_version: 1,
        created_at: at,
        updated_at: at,
      });
      await db
        .insertInto('steps')
        .values([step('s1', 'live', 1), step('s2', 'live', 2), step('s3', 'draft', 1)] as never)
        .execute();
      const run = (id: string, status: string) => ({
        id,
        flow_id: 'live',
        status,
        test_run: codec.bool(false),
        created_at: at,
        updated_at: at,
      });
      await db
        .insertInto('executions')
        .values([run('waiting', 'waiting'), run('done', 'success')] as never)
        .execute();

      await migrateToLatest(handle.db);
      const repos = createRepositories({ ...handle, secretBox: testSecretBox });
      const live = await repos.flows.findById('live');
      expect(live).toMatchObject({ active: true, publishedVersion: { number: 1 }, hasDraftChanges: false });
      const version = await repos.flowVersions.findById(live?.publishedVersion?.id ?? '');
      expect(version).toMatchObject({ flowId: 'live', number: 1, publishedBy: 'u1', name: 'Flow live' });
      expect(version?.steps.map((s) => [s.id, s.position, s.parameters])).toEqual([
        ['s1', 1, { b: 1, a: 'two' }],
        ['s2', 2, { b: 1, a: 'two' }],
      ]);
      expect(await repos.flows.findById('draft')).toMatchObject({ publishedVersion: null, hasDraftChanges: true });
      expect((await repos.executions.findById('waiting'))?.flowVersion).toEqual(live?.publishedVersion);
      expect((await repos.executions.findById('done'))?.flowVersion).toBeNull();
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
