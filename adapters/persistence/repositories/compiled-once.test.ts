import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../auth/secret-box.js';
import { sqliteCodec } from '../codec.js';
import type { Database } from '../schema.js';
import { openSqlite } from '../sqlite.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';

describe('compiledOnce', () => {
  let db: Kysely<Database>;
  let executor: Executor;
  const compiles: string[] = [];

  beforeAll(async () => {
    db = openSqlite(':memory:');
    await sql`create table flow_store (flow_id text, key text, value text, updated_at text)`.execute(db);
    executor = { db, codec: sqliteCodec, secretBox: createSecretBox([new Uint8Array(32)]) };
  });
  afterAll(() => db.destroy());

  const insert = compiledOnce(['flowId', 'key', 'value'], (kysely, v) => {
    compiles.push('insert');
    return kysely
      .insertInto('flow_store')
      .values({ flow_id: v.flowId, key: v.key, value: v.value, updated_at: 'constant' });
  });
  const read = compiledOnce(['flowId', 'key'], (kysely, v) => {
    compiles.push('read');
    return (
      kysely
        .selectFrom('flow_store')
        .select(['key', 'value', 'updated_at'])
        .where('flow_id', '=', v.flowId)
        // A value used twice is filled in at both places.
        .where((eb) => eb.or([eb('key', '=', v.key), eb('value', '=', v.key)]))
        .orderBy('value')
    );
  });

  it('builds each statement once and runs it with every call’s values, keeping the constants', async () => {
    await insert(executor, { flowId: 'f1', key: 'a', value: 'one' });
    await insert(executor, { flowId: 'f1', key: 'b', value: 'two' });
    await insert(executor, { flowId: 'f2', key: 'a', value: 'three' });
    expect((await read(executor, { flowId: 'f1', key: 'a' })).rows).toEqual([
      { key: 'a', value: 'one', updated_at: 'constant' },
    ]);
    expect((await read(executor, { flowId: 'f2', key: 'three' })).rows).toEqual([
      { key: 'a', value: 'three', updated_at: 'constant' },
    ]);
    expect(compiles).toEqual(['insert', 'read']);
  });

  it('runs in the transaction of the executor it is given', async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await insert({ ...executor, db: trx }, { flowId: 'f3', key: 'x', value: 'kept?' });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await read(executor, { flowId: 'f3', key: 'x' })).rows).toEqual([]);
  });

  it('refuses a statement in which a value does not stay a plain parameter', async () => {
    const wrapped = compiledOnce(['value'], (kysely, v) =>
      kysely.insertInto('flow_store').values({ flow_id: 'f', key: 'k', value: [v.value] as never, updated_at: 'u' }),
    );
    await expect(wrapped(executor, { value: 'v' })).rejects.toThrow(/not a plain value/);
  });
});
