import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../core/domain/result.js';
import type { UserTokenKind } from '../../core/domain/tokens.js';
import type { Repositories } from '../../ports/repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const TTL = 30 * MINUTE;
const RESET: UserTokenKind = 'reset-password';
const INVITATION: UserTokenKind = 'invitation';

/** Inserts a token of the kind expiring after TTL and returns its hash. */
const issue = async (repos: Repositories, userId: string, kind: UserTokenKind, now = T0): Promise<string> => {
  const tokenHash = `hash-${randomUUID()}`;
  await repos.userTokens.insert({
    id: randomUUID(),
    userId,
    kind,
    tokenHash,
    expiresAt: new Date(now.getTime() + TTL),
    now,
  });
  return tokenHash;
};

describe.each(DIALECTS)('user token repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos);
  });
  afterEach(() => fx.close());

  it('consumes a token once', async () => {
    const hash = await issue(fx.repos, alice, RESET);
    expect(await fx.repos.userTokens.consume(RESET, hash, at(MINUTE))).toBe(alice);
    expect(await fx.repos.userTokens.consume(RESET, hash, at(MINUTE))).toBeNull();
    expect(await fx.repos.userTokens.findUsableUserId(RESET, hash, at(MINUTE))).toBeNull();
  });

  it('answers null for an unknown token', async () => {
    expect(await fx.repos.userTokens.findUsableUserId(RESET, 'unknown', at(MINUTE))).toBeNull();
    expect(await fx.repos.userTokens.consume(RESET, 'unknown', at(MINUTE))).toBeNull();
  });

  it('refuses an expired token, from the instant it expires', async () => {
    const hash = await issue(fx.repos, alice, RESET);
    expect(await fx.repos.userTokens.findUsableUserId(RESET, hash, at(TTL - 1))).toBe(alice);
    expect(await fx.repos.userTokens.findUsableUserId(RESET, hash, at(TTL))).toBeNull();
    expect(await fx.repos.userTokens.consume(RESET, hash, at(TTL))).toBeNull();
    expect(await fx.repos.userTokens.consume(RESET, hash, at(TTL + MINUTE))).toBeNull();
    // Refused, not consumed: the token is still there for an earlier instant.
    expect(await fx.repos.userTokens.consume(RESET, hash, at(TTL - 1))).toBe(alice);
  });

  it('does not mix kinds', async () => {
    const reset = await issue(fx.repos, alice, RESET);
    const invitation = await issue(fx.repos, alice, INVITATION);
    expect(await fx.repos.userTokens.findUsableUserId(INVITATION, reset, at(MINUTE))).toBeNull();
    expect(await fx.repos.userTokens.consume(INVITATION, reset, at(MINUTE))).toBeNull();
    expect(await fx.repos.userTokens.consume(RESET, invitation, at(MINUTE))).toBeNull();
    // The refused attempts consumed nothing.
    expect(await fx.repos.userTokens.consume(RESET, reset, at(MINUTE))).toBe(alice);
    expect(await fx.repos.userTokens.consume(INVITATION, invitation, at(MINUTE))).toBe(alice);
  });

  it('finds the user of a usable token without consuming it', async () => {
    const hash = await issue(fx.repos, alice, INVITATION);
    expect(await fx.repos.userTokens.findUsableUserId(INVITATION, hash, at(MINUTE))).toBe(alice);
    expect(await fx.repos.userTokens.findUsableUserId(INVITATION, hash, at(MINUTE))).toBe(alice);
    expect(await fx.repos.userTokens.consume(INVITATION, hash, at(MINUTE))).toBe(alice);
  });

  it('discards the user’s outstanding tokens of one kind only', async () => {
    const bob = await insertUser(fx.repos);
    const first = await issue(fx.repos, alice, RESET);
    const second = await issue(fx.repos, alice, RESET);
    const invitation = await issue(fx.repos, alice, INVITATION);
    const bobs = await issue(fx.repos, bob, RESET);

    await fx.repos.userTokens.discardOutstanding(alice, RESET, at(MINUTE));

    expect(await fx.repos.userTokens.findUsableUserId(RESET, first, at(MINUTE))).toBeNull();
    expect(await fx.repos.userTokens.consume(RESET, second, at(MINUTE))).toBeNull();
    expect(await fx.repos.userTokens.consume(INVITATION, invitation, at(MINUTE))).toBe(alice);
    expect(await fx.repos.userTokens.consume(RESET, bobs, at(MINUTE))).toBe(bob);
  });

  it('leaves a token issued after the discard usable', async () => {
    await issue(fx.repos, alice, RESET);
    await fx.repos.userTokens.discardOutstanding(alice, RESET, at(MINUTE));
    const fresh = await issue(fx.repos, alice, RESET, at(MINUTE));
    expect(await fx.repos.userTokens.consume(RESET, fresh, at(2 * MINUTE))).toBe(alice);
  });

  it('redeems a token once when two units of work race for it', async () => {
    const hash = await issue(fx.repos, alice, RESET);
    const redeem = () => fx.uow.run(async (repos) => ok(await repos.userTokens.consume(RESET, hash, at(MINUTE))));
    const results = await Promise.all([redeem(), redeem(), redeem()]);
    const userIds = results.map((r) => (r.ok ? r.value : 'failed'));
    expect(userIds.filter((id) => id === alice)).toHaveLength(1);
    expect(userIds.filter((id) => id === null)).toHaveLength(2);
  });
});
