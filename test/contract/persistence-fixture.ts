import { randomBytes, randomUUID } from 'node:crypto';
import { createSecretBox } from '../../adapters/auth/secret-box.js';
import { migrateToLatest } from '../../adapters/persistence/migrate.js';
import { type DatabaseHandle, openDatabase } from '../../adapters/persistence/open-database.js';
import { createRepositories } from '../../adapters/persistence/repositories/index.js';
import { createUnitOfWork } from '../../adapters/persistence/unit-of-work.js';
import type { UserStatus } from '../../core/domain/user.js';
import type { Logger } from '../../ports/logger.js';
import type { Repositories } from '../../ports/repositories.js';
import type { UnitOfWork } from '../../ports/unit-of-work.js';
import { createTestDatabase, type DialectName, type TestDatabase } from '../support/databases.js';

const noop = () => {};

/** Seals with a key of this test run's own. */
export const testSecretBox = createSecretBox([new Uint8Array(randomBytes(32))]);

/** A logger that writes nothing. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

export interface PersistenceFixture {
  readonly handle: DatabaseHandle;
  readonly repos: Repositories;
  readonly uow: UnitOfWork;
  readonly testDb: TestDatabase;
  close(): Promise<void>;
}

/** A private, migrated database of the dialect, with the real repositories and unit of work on it. */
export const openFixture = async (dialect: DialectName): Promise<PersistenceFixture> => {
  const testDb = await createTestDatabase(dialect);
  const handle = openDatabase(testDb.url, silentLogger);
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    await testDb.drop();
    throw error;
  }
  return {
    handle,
    repos: createRepositories({ ...handle, secretBox: testSecretBox }),
    uow: createUnitOfWork(handle, testSecretBox),
    testDb,
    async close() {
      await handle.close();
      await testDb.drop();
    },
  };
};

/** Fixed instants, so that no test depends on the wall clock. */
export const T0 = new Date('2026-03-01T12:00:00.000Z');
export const at = (offsetMs: number): Date => new Date(T0.getTime() + offsetMs);
export const MINUTE = 60_000;

/** The id of a seeded role, which every migrated database has. */
export const roleId = async (repos: Repositories, name: 'Admin' | 'User'): Promise<string> => {
  const role = await repos.roles.findByName(name);
  if (!role) throw new Error(`The ${name} role is not seeded`);
  return role.id;
};

export interface UserSpec {
  readonly email?: string;
  readonly fullName?: string;
  readonly passwordHash?: string | null;
  readonly role?: 'Admin' | 'User';
  readonly status?: UserStatus;
  readonly now?: Date;
}

/** Inserts a user (a User-role, active one unless told otherwise) and returns its id. */
export const insertUser = async (repos: Repositories, spec: UserSpec = {}): Promise<string> => {
  const id = randomUUID();
  await repos.users.insert({
    id,
    email: spec.email ?? `${id}@example.com`,
    fullName: spec.fullName ?? 'Test User',
    passwordHash: spec.passwordHash === undefined ? 'hash' : spec.passwordHash,
    roleId: await roleId(repos, spec.role ?? 'User'),
    status: spec.status ?? 'active',
    now: spec.now ?? T0,
  });
  return id;
};

/** Inserts a flow of a new user and returns the flow's id. */
export const insertFlow = async (repos: Repositories): Promise<string> => {
  const flow = await repos.flows.insert({
    id: randomUUID(),
    userId: await insertUser(repos),
    name: 'Flow',
    folderId: null,
    now: T0,
  });
  return flow.id;
};

/**
 * Another pool on the fixture's database, with the real repositories: what a second process
 * (another worker) sees, with locks of its own in the process.
 */
export const openSecondPool = (fx: PersistenceFixture): { readonly repos: Repositories; close(): Promise<void> } => {
  const handle = openDatabase(fx.testDb.url, silentLogger);
  return { repos: createRepositories({ ...handle, secretBox: testSecretBox }), close: () => handle.close() };
};
