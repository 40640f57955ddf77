import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../core/domain/result.js';
import type { Repositories } from '../../ports/repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

/** Inserts an API token of the user and returns its id and hash. */
const issue = async (repos: Repositories, userId: string, now = T0, tokenHash = `hash-${randomUUID()}`) => {
  const id = randomUUID();
  await repos.apiTokens.insert({ id, userId, tokenHash, maskedToken: 'abcd...wxyz', now });
  return { id, tokenHash };
};

describe.each(DIALECTS)('API token repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos, { role: 'Admin' });
    bob = await insertUser(fx.repos, { role: 'Admin' });
  });
  afterEach(() => fx.close());

  it('inserts a token and returns it without its hash', async () => {
    const id = randomUUID();
    const inserted = await fx.repos.apiTokens.insert({
      id,
      userId: alice,
      tokenHash: 'the-hash',
      maskedToken: 'cvr_...1234',
      now: T0,
    });
    expect(inserted).toEqual({ id, userId: alice, maskedToken: 'cvr_...1234', createdAt: T0 });
  });

  it('finds a token by its hash, and nothing for an unknown hash', async () => {
    const token = await issue(fx.repos, alice);
    await issue(fx.repos, bob);
    expect(await fx.repos.apiTokens.findByHash(token.tokenHash)).toEqual({
      id: token.id,
      userId: alice,
      maskedToken: 'abcd...wxyz',
      createdAt: T0,
    });
    expect(await fx.repos.apiTokens.findByHash('unknown-hash')).toBeNull();
  });

  it('lists every token, newest first', async () => {
    expect(await fx.repos.apiTokens.list()).toEqual([]);
    const middle = await issue(fx.repos, alice, at(MINUTE));
    const newest = await issue(fx.repos, bob, at(2 * MINUTE));
    const oldest = await issue(fx.repos, alice, T0);
    const listed = await fx.repos.apiTokens.list();
    expect(listed.map((t) => t.id)).toEqual([newest.id, middle.id, oldest.id]);
    expect(listed.map((t) => t.createdAt)).toEqual([at(2 * MINUTE), at(MINUTE), T0]);
    expect(listed.map((t) => t.userId)).toEqual([bob, alice, alice]);
  });

  it('deletes a token once', async () => {
    const token = await issue(fx.repos, alice);
    const kept = await issue(fx.repos, alice);
    expect(await fx.repos.apiTokens.delete(token.id)).toBe(true);
    expect(await fx.repos.apiTokens.delete(token.id)).toBe(false);
    expect(await fx.repos.apiTokens.delete(randomUUID())).toBe(false);
    expect(await fx.repos.apiTokens.findByHash(token.tokenHash)).toBeNull();
    expect((await fx.repos.apiTokens.list()).map((t) => t.id)).toEqual([kept.id]);
  });

  it('deletes all tokens of one user only', async () => {
    await issue(fx.repos, alice);
    await issue(fx.repos, alice, at(MINUTE));
    const bobs = await issue(fx.repos, bob);
    await fx.repos.apiTokens.deleteAllOfUser(alice);
    expect((await fx.repos.apiTokens.list()).map((t) => t.id)).toEqual([bobs.id]);
    await fx.repos.apiTokens.deleteAllOfUser(alice);
    expect(await fx.repos.apiTokens.list()).toHaveLength(1);
  });

  it('refuses a duplicate hash inside a unit of work and commits nothing of it', async () => {
    await issue(fx.repos, alice, T0, 'taken-hash');
    const freshHash = `hash-${randomUUID()}`;
    const result = await fx.uow.run(async (repos) => {
      await issue(repos, bob, at(MINUTE), freshHash);
      await issue(repos, bob, at(MINUTE), 'taken-hash');
      return ok(undefined);
    });
    expect(result).toEqual(err({ code: 'unique.violation', field: 'tokenHash' }));
    expect(await fx.repos.apiTokens.findByHash(freshHash)).toBeNull();
    expect((await fx.repos.apiTokens.findByHash('taken-hash'))?.userId).toBe(alice);
    expect(await fx.repos.apiTokens.list()).toHaveLength(1);
  });

  it('goes with its user when the user row is deleted', async () => {
    await issue(fx.repos, alice);
    await issue(fx.repos, alice, at(MINUTE));
    const bobs = await issue(fx.repos, bob);
    await fx.handle.db.deleteFrom('users').where('id', '=', alice).execute();
    expect((await fx.repos.apiTokens.list()).map((t) => t.id)).toEqual([bobs.id]);
    const rows = await fx.handle.db.selectFrom('api_tokens').select('id').where('user_id', '=', alice).execute();
    expect(rows).toEqual([]);
  });
});
