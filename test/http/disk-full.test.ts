import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type DialectName, type TestDatabase } from '../support/databases.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/** A small tmpfs of its own, to fill up: needs root and a `mount` that works here. */
const mountSmallDisk = (owner?: { uid: number; gid: number }): string | null => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-disk-'));
  const ids = owner ? `,uid=${owner.uid},gid=${owner.gid}` : '';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=8m,mode=0755${ids}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
};

const unmount = (dir: string) => {
  execFileSync('umount', [dir], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
};

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = mountSmallDisk();
  if (dir === null) return false;
  unmount(dir);
  return true;
})();

/** Writes a file until the disk has no room left; removing it gives the room back. */
const fillUp = (dir: string): string => {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
};

const uidOf = (user: string) => {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid === undefined || gid === undefined ? null : { uid: Number(uid), gid: Number(gid) };
};

/** The instance's database on the small disk: a SQLite file there, or a Postgres tablespace there. */
const onSmallDisk = async (
  dialect: DialectName,
): Promise<{ env: Record<string, string>; disk: string; cleanup: () => Promise<void> } | null> => {
  if (dialect === 'sqlite') {
    const disk = mountSmallDisk();
    if (disk === null) return null;
    return { env: { DATABASE_URL: join(disk, 'conveyor.db') }, disk, cleanup: async () => unmount(disk) };
  }
  // The test server is on this machine: its tablespace folder must belong to its own user.
  const owner = uidOf('postgres');
  const disk = owner && mountSmallDisk(owner);
  if (!owner || !disk) return null;
  const folder = join(disk, 'tablespace');
  mkdirSync(folder);
  chownSync(folder, owner.uid, owner.gid);
  const tablespace = `conveyor_small_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create tablespace ${tablespace} location '${folder}'`);
  const database: TestDatabase = await createTestDatabase('postgres');
  const url = new URL(database.url);
  url.searchParams.set('options', `${url.searchParams.get('options')} -c default_tablespace=${tablespace}`);
  return {
    env: { DATABASE_URL: url.toString() },
    disk,
    cleanup: async () => {
      await database.drop();
      await admin.query(`drop tablespace ${tablespace}`);
      await admin.end();
      unmount(disk);
    },
  };
};

/**
 * A full disk under the database is a passing condition, as an unreachable database is: writes
 * answer 503 ServiceUnavailableError with Retry-After (not 500), and work again, without a restart,
 * once space is freed.
 */
describe.runIf(canMount).each(DIALECTS)('a full disk under the database (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let small: Awaited<ReturnType<typeof onSmallDisk>>;
  beforeAll(async () => {
    small = await onSmallDisk(dialect);
    if (!small) throw new Error('could not put the database on a small disk');
    instance = await startTestInstance(dialect, small.env);
    token = await installAndSignIn(instance);
  });
  afterAll(async () => {
    await instance?.close();
    await small?.cleanup();
  });

  it('answers 503 with Retry-After while it is full, and serves again once space is freed', async () => {
    if (!small) throw new Error('no small disk');
    const filler = fillUp(small.disk);
    try {
      // Writes that need new pages fail; enough of them to be sure the disk is what stops them.
      let refused: Awaited<ReturnType<TestInstance['request']>> | undefined;
      for (let i = 0; i < 40 && refused === undefined; i += 1) {
        const created = await instance.request('POST', '/flows', { token, body: { name: 'x'.repeat(4000) } });
        if (created.status !== 201) refused = created;
        else
          await instance.request('PATCH', `/flows/${created.body.data.id}`, {
            token,
            body: { name: 'y'.repeat(4000) },
          });
      }
      expect(refused?.status).toBe(503);
      expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused?.body.meta).toEqual({ type: 'ServiceUnavailableError' });
      // Reading needs no room.
      expect((await instance.request('GET', '/flows', { token })).status).toBe(200);
    } finally {
      rmSync(filler);
    }
    const after = await instance.request('POST', '/flows', { token, body: { name: 'after' } });
    expect(after.status).toBe(201);
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(200);
  });
});
