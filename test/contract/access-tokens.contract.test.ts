import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Repositories } from '../../ports/repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const HOUR = 60 * MINUTE;

/** Inserts a token expiring in an hour and returns its id and hash. */
const issue = async (repos: Repositories, userId: string, expiresAt = at(HOUR)) => {
  const token = { id: randomUUID(), tokenHash: `hash-${randomUUID()}` };
  await repos.accessTokens.insert({ ...token, userId, expiresAt, now: T0 });
  return token;
};

describe.each(DIALECTS)('access token repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos);
    bob = await insertUser(fx.repos);
  });
  afterEach(() => fx.close());

  it('finds a live token by its hash', async () => {
    const token = await issue(fx.repos, alice);
    expect(await fx.repos.accessTokens.findUsable(token.tokenHash, at(MINUTE))).toEqual({
      id: token.id,
      userId: alice,
      expiresAt: at(HOUR),
      revokedAt: null,
      createdAt: T0,
    });
    expect(await fx.repos.accessTokens.findUsable('unknown-hash', at(MINUTE))).toBeNull();
  });

  it('refuses a token from the instant it expires', async () => {
    const token = await issue(fx.repos, alice);
    expect(await fx.repos.accessTokens.findUsable(token.tokenHash, at(HOUR - 1))).not.toBeNull();
    expect(await fx.repos.accessTokens.findUsable(token.tokenHash, at(HOUR))).toBeNull();
    expect(await fx.repos.accessTokens.findUsable(token.tokenHash, at(HOUR + 1))).toBeNull();
  });

  it('refuses a revoked token', async () => {
    const token = await issue(fx.repos, alice);
    expect(await fx.repos.accessTokens.revokeOwn(alice, token.tokenHash, at(MINUTE))).toBe(true);
    expect(await fx.repos.accessTokens.findUsable(token.tokenHash, at(2 * MINUTE))).toBeNull();
  });

  it('revokes only the given user’s own token, once', async () => {
    const token = await issue(fx.repos, alice);
    expect(await fx.repos.accessTokens.revokeOwn(bob, token.tokenHash, at(MINUTE))).toBe(false);
    expect(await fx.repos.accessTokens.findUsable(token.tokenHash, at(MINUTE))).not.toBeNull();

    expect(await fx.repos.accessTokens.revokeOwn(alice, token.tokenHash, at(MINUTE))).toBe(true);
    expect(await fx.repos.accessTokens.revokeOwn(alice, token.tokenHash, at(2 * MINUTE))).toBe(false);
    expect(await fx.repos.accessTokens.revokeOwn(alice, 'unknown-hash', at(2 * MINUTE))).toBe(false);
  });

  it('keeps the first revocation time when revoked again', async () => {
    const token = await issue(fx.repos, alice);
    await fx.repos.accessTokens.revokeOwn(alice, token.tokenHash, at(MINUTE));
    await fx.repos.accessTokens.revokeAllOfUser(alice, at(2 * MINUTE));
    const row = await fx.handle.db
      .selectFrom('access_tokens')
      .select('revoked_at')
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at === null ? null : fx.handle.codec.readTimestamp(row.revoked_at)).toEqual(at(MINUTE));
  });

  it('revokes every token of the user and no one else’s', async () => {
    const first = await issue(fx.repos, alice);
    const second = await issue(fx.repos, alice);
    const bobs = await issue(fx.repos, bob);
    await fx.repos.accessTokens.revokeAllOfUser(alice, at(MINUTE));

    expect(await fx.repos.accessTokens.findUsable(first.tokenHash, at(MINUTE))).toBeNull();
    expect(await fx.repos.accessTokens.findUsable(second.tokenHash, at(MINUTE))).toBeNull();
    expect((await fx.repos.accessTokens.findUsable(bobs.tokenHash, at(MINUTE)))?.userId).toBe(bob);
  });

  it('spares the excepted token when revoking all of the user’s', async () => {
    const own = await issue(fx.repos, alice);
    const other = await issue(fx.repos, alice);
    const bobs = await issue(fx.repos, bob);
    await fx.repos.accessTokens.revokeAllOfUser(alice, at(MINUTE), own.id);

    expect((await fx.repos.accessTokens.findUsable(own.tokenHash, at(MINUTE)))?.id).toBe(own.id);
    expect(await fx.repos.accessTokens.findUsable(other.tokenHash, at(MINUTE))).toBeNull();
    expect(await fx.repos.accessTokens.findUsable(bobs.tokenHash, at(MINUTE))).not.toBeNull();
  });

  it('does not let another user’s token id shield a token of this user', async () => {
    const own = await issue(fx.repos, alice);
    const bobs = await issue(fx.repos, bob);
    await fx.repos.accessTokens.revokeAllOfUser(alice, at(MINUTE), bobs.id);
    expect(await fx.repos.accessTokens.findUsable(own.tokenHash, at(MINUTE))).toBeNull();
    expect(await fx.repos.accessTokens.findUsable(bobs.tokenHash, at(MINUTE))).not.toBeNull();
  });
});
