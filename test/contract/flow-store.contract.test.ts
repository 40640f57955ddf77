import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notFound } from '../../core/domain/errors.js';
import { err, ok } from '../../core/domain/result.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('a flow store (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let flowId: string;

  beforeEach(async () => {
    fx = await openFixture(dialect);
    flowId = await insertFlow(fx.repos);
  });
  afterEach(() => fx.close());

  it('keeps the last value of each key, per flow, readable at once', async () => {
    expect(await fx.repos.flowStore.get(flowId, 'count')).toBeUndefined();
    await fx.repos.flowStore.set(flowId, 'count', 1, T0);
    await fx.repos.flowStore.set(flowId, 'last', { name: 'Ann', tags: ['a'] }, T0);
    expect(await fx.repos.flowStore.get(flowId, 'count')).toBe(1);
    await fx.repos.flowStore.set(flowId, 'count', 2, at(MINUTE));
    expect(await fx.repos.flowStore.get(flowId, 'count')).toBe(2);
    expect(await fx.repos.flowStore.get(flowId, 'last')).toEqual({ name: 'Ann', tags: ['a'] });
    await fx.repos.flowStore.set(flowId, 'last', undefined, at(MINUTE));
    expect(await fx.repos.flowStore.get(flowId, 'last')).toBeUndefined();
  });

  it('writes inside a unit of work only when it commits', async () => {
    await fx.uow.run(async (tx) => {
      await tx.flowStore.set(flowId, 'cursor', 'rolled back', T0);
      return err(notFound('flow'));
    });
    expect(await fx.repos.flowStore.get(flowId, 'cursor')).toBeUndefined();
    await fx.uow.run(async (tx) => {
      await tx.flowStore.set(flowId, 'cursor', 'kept', T0);
      return ok(null);
    });
    expect(await fx.repos.flowStore.get(flowId, 'cursor')).toBe('kept');
  });

  it.runIf(dialect === 'postgres')(
    'commits a write of its own without waiting for the WAL flush, and leaves the connection as it was',
    async () => {
      // Every write to the table notes the synchronous_commit its transaction runs with.
      const { db } = fx.handle;
      await sql`create table commit_modes (key text, mode text)`.execute(db);
      await sql`create function note_commit_mode() returns trigger language plpgsql as $$
        begin
          insert into commit_modes values (new.key, current_setting('synchronous_commit'));
          return new;
        end $$`.execute(db);
      await sql`create trigger note_commit_mode before insert or update on flow_store
        for each row execute function note_commit_mode()`.execute(db);

      await fx.repos.flowStore.set(flowId, 'alone', 1, T0);
      await fx.repos.flowStore.set(flowId, 'alone', 2, T0);
      await fx.uow.run(async (tx) => {
        await tx.flowStore.set(flowId, 'in a unit', 1, T0);
        return ok(null);
      });
      const { rows } = await sql<{
        key: string;
        mode: string;
      }>`select distinct key, mode from commit_modes order by key`.execute(db);
      // (An upsert that updates fires both triggers: the row is noted twice, with the same mode.)
      expect(rows).toEqual([
        { key: 'alone', mode: 'off' },
        // A unit of work's other writes must be durable at its commit: it keeps waiting for the flush.
        { key: 'in a unit', mode: 'on' },
      ]);
      // The setting was the write's own transaction's: later statements on the pool commit as before.
      const settings = await Promise.all(
        Array.from({ length: 10 }, () =>
          sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db).then((r) => r.rows[0]),
        ),
      );
      expect(new Set(settings.map((s) => s?.synchronous_commit))).toEqual(new Set(['on']));
    },
  );
});
