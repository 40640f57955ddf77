import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../core/domain/result.js';
import type { SamlAuthProviderFields } from '../../core/domain/saml.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, roleId, T0 } from './persistence-fixture.js';

const fields = (defaultRoleId: string, overrides: Partial<SamlAuthProviderFields> = {}): SamlAuthProviderFields => ({
  name: 'Corporate IdP',
  certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  signatureAlgorithm: 'sha256',
  issuer: `https://conveyor.test/${randomUUID()}`,
  entryPoint: 'https://idp.test/sso',
  firstnameAttributeName: 'firstName',
  surnameAttributeName: 'lastName',
  emailAttributeName: 'email',
  roleAttributeName: 'groups',
  defaultRoleId,
  active: true,
  ...overrides,
});

describe.each(DIALECTS)('SAML repositories contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let userRoleId: string;
  let providerId: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    userRoleId = await roleId(fx.repos, 'User');
    providerId = randomUUID();
    await fx.repos.samlProviders.insert({ ...fields(userRoleId), id: providerId, now: T0 });
  });
  afterEach(() => fx.close());

  describe('providers', () => {
    it('stores every field and finds a provider by id and by issuer', async () => {
      const id = randomUUID();
      const given = fields(userRoleId, { name: 'Another', active: false });
      const inserted = await fx.repos.samlProviders.insert({ ...given, id, now: T0 });
      expect(inserted).toEqual({ ...given, id, createdAt: T0, updatedAt: T0 });
      expect(await fx.repos.samlProviders.findById(id)).toEqual(inserted);
      expect(await fx.repos.samlProviders.findByIssuer(given.issuer)).toEqual(inserted);
      expect(await fx.repos.samlProviders.findByIssuer('https://unknown.test')).toBeNull();
    });

    it('lists by name, the active ones when asked', async () => {
      await fx.repos.samlProviders.insert({
        ...fields(userRoleId, { name: 'Alpha', active: false }),
        id: randomUUID(),
        now: T0,
      });
      expect((await fx.repos.samlProviders.list({ activeOnly: false })).map((p) => p.name)).toEqual([
        'Alpha',
        'Corporate IdP',
      ]);
      expect((await fx.repos.samlProviders.list({ activeOnly: true })).map((p) => p.name)).toEqual(['Corporate IdP']);
    });

    it('changes only the given fields and refuses a taken issuer', async () => {
      await fx.repos.samlProviders.update(providerId, { name: 'Renamed', active: false }, at(MINUTE));
      const changed = await fx.repos.samlProviders.findById(providerId);
      expect(changed).toMatchObject({ name: 'Renamed', active: false, entryPoint: 'https://idp.test/sso' });
      expect(changed?.updatedAt).toEqual(at(MINUTE));

      const taken = changed?.issuer ?? '';
      const result = await fx.uow.run(async (tx) =>
        ok(await tx.samlProviders.insert({ ...fields(userRoleId, { issuer: taken }), id: randomUUID(), now: T0 })),
      );
      expect(result).toEqual({ ok: false, error: { code: 'unique.violation', field: 'issuer' } });
    });

    it('counts the providers that default to a role', async () => {
      expect(await fx.repos.samlProviders.countByDefaultRole(userRoleId)).toBe(1);
      expect(await fx.repos.samlProviders.countByDefaultRole(await roleId(fx.repos, 'Admin'))).toBe(0);
    });
  });

  describe('role mappings', () => {
    const mapping = (remoteRoleName: string, roleId: string) => ({
      id: randomUUID(),
      samlAuthProviderId: providerId,
      roleId,
      remoteRoleName,
    });

    it('are replaced as a whole and listed in the order given', async () => {
      const adminRoleId = await roleId(fx.repos, 'Admin');
      await fx.repos.samlProviders.replaceRoleMappings(providerId, [mapping('a', userRoleId)], T0);
      const second = [mapping('zeta', adminRoleId), mapping('alpha', userRoleId), mapping('mid', adminRoleId)];
      await fx.repos.samlProviders.replaceRoleMappings(providerId, second, at(MINUTE));
      expect(await fx.repos.samlProviders.listRoleMappings(providerId)).toEqual(second);
      await fx.repos.samlProviders.replaceRoleMappings(providerId, [], at(2 * MINUTE));
      expect(await fx.repos.samlProviders.listRoleMappings(providerId)).toEqual([]);
    });

    it('hold one mapping per remote role name and provider', async () => {
      const result = await fx.uow.run(async (tx) => {
        await tx.samlProviders.replaceRoleMappings(
          providerId,
          [mapping('x', userRoleId), mapping('x', userRoleId)],
          T0,
        );
        return ok(undefined);
      });
      expect(result.ok).toBe(false);
      expect(await fx.repos.samlProviders.listRoleMappings(providerId)).toEqual([]);
    });

    it('go with their role when it is deleted', async () => {
      const roleIdToDelete = randomUUID();
      await fx.repos.roles.insert({
        id: roleIdToDelete,
        name: 'Temporary',
        description: null,
        permissions: [],
        now: T0,
      });
      await fx.repos.samlProviders.replaceRoleMappings(
        providerId,
        [mapping('temp', roleIdToDelete), mapping('kept', userRoleId)],
        T0,
      );
      await fx.repos.roles.delete(roleIdToDelete);
      expect((await fx.repos.samlProviders.listRoleMappings(providerId)).map((m) => m.remoteRoleName)).toEqual([
        'kept',
      ]);
    });
  });

  describe('identities', () => {
    it('name one user per name id and provider', async () => {
      const userId = await insertUser(fx.repos);
      const identity = { id: randomUUID(), samlAuthProviderId: providerId, remoteId: 'alice', userId };
      await fx.repos.samlIdentities.insert({ ...identity, now: T0 });
      expect(await fx.repos.samlIdentities.find(providerId, 'alice')).toEqual(identity);
      expect(await fx.repos.samlIdentities.find(providerId, 'bob')).toBeNull();

      const again = await fx.uow.run(async (tx) => {
        await tx.samlIdentities.insert({ ...identity, id: randomUUID(), userId: await insertUser(tx), now: T0 });
        return ok(undefined);
      });
      expect(again.ok).toBe(false);

      await fx.repos.samlIdentities.delete(identity.id);
      expect(await fx.repos.samlIdentities.find(providerId, 'alice')).toBeNull();
    });
  });

  describe('messages', () => {
    it('keep a request until it expires, for its provider only', async () => {
      await fx.repos.samlMessages.saveRequest({ requestId: '_r1', providerId, expiresAt: at(15 * MINUTE), now: T0 });
      expect(await fx.repos.samlMessages.findRequest(providerId, '_r1', at(MINUTE))).toEqual(T0);
      expect(await fx.repos.samlMessages.findRequest(randomUUID(), '_r1', at(MINUTE))).toBeNull();
      expect(await fx.repos.samlMessages.findRequest(providerId, '_r1', at(15 * MINUTE))).toBeNull();
      await fx.repos.samlMessages.deleteRequest(providerId, '_r1');
      expect(await fx.repos.samlMessages.findRequest(providerId, '_r1', T0)).toBeNull();
    });

    it('take an assertion once, even when two take it at the same time', async () => {
      const results = await Promise.all([
        fx.repos.samlMessages.consumeAssertion(providerId, '_a1', at(5 * MINUTE)),
        fx.repos.samlMessages.consumeAssertion(providerId, '_a1', at(5 * MINUTE)),
      ]);
      expect(results.sort()).toEqual([false, true]);
      expect(await fx.repos.samlMessages.consumeAssertion(providerId, '_a1', at(5 * MINUTE))).toBe(false);
    });

    it('forget expired requests and used assertions', async () => {
      await fx.repos.samlMessages.saveRequest({ requestId: '_old', providerId, expiresAt: at(MINUTE), now: T0 });
      await fx.repos.samlMessages.saveRequest({ requestId: '_new', providerId, expiresAt: at(20 * MINUTE), now: T0 });
      await fx.repos.samlMessages.consumeAssertion(providerId, '_old', at(MINUTE));
      await fx.repos.samlMessages.consumeAssertion(providerId, '_new', at(20 * MINUTE));
      expect(await fx.repos.samlMessages.deleteExpired(at(MINUTE))).toBe(2);
      expect(await fx.repos.samlMessages.findRequest(providerId, '_new', at(MINUTE))).toEqual(T0);
      // The old assertion may be taken again only because it is past its validity.
      expect(await fx.repos.samlMessages.consumeAssertion(providerId, '_old', at(MINUTE))).toBe(true);
      expect(await fx.repos.samlMessages.consumeAssertion(providerId, '_new', at(20 * MINUTE))).toBe(false);
    });
  });

  describe('sessions', () => {
    const issue = async (userId: string, nameId: string, sessionIndex: string | null) => {
      const accessTokenId = randomUUID();
      await fx.repos.accessTokens.insert({
        id: accessTokenId,
        userId,
        tokenHash: randomUUID(),
        expiresAt: at(60 * MINUTE),
        now: T0,
      });
      await fx.repos.samlSessions.insert({
        accessTokenId,
        providerId,
        nameId,
        sessionIndex,
        expiresAt: at(60 * MINUTE),
      });
      return accessTokenId;
    };
    const revoked = async (tokenId: string) =>
      (await fx.handle.db.selectFrom('access_tokens').select('revoked_at').where('id', '=', tokenId).executeTakeFirst())
        ?.revoked_at !== null;

    it('revoke the tokens of one session, or of every session of the name id', async () => {
      const userId = await insertUser(fx.repos);
      const one = await issue(userId, 'alice', 's1');
      const two = await issue(userId, 'alice', 's2');
      const other = await issue(await insertUser(fx.repos), 'bob', 's1');

      expect(await fx.repos.samlSessions.revokeTokens(providerId, 'alice', 's1', at(MINUTE))).toBe(1);
      expect([await revoked(one), await revoked(two), await revoked(other)]).toEqual([true, false, false]);
      expect(await fx.repos.samlSessions.revokeTokens(providerId, 'alice', null, at(MINUTE))).toBe(1);
      expect([await revoked(two), await revoked(other)]).toEqual([true, false]);
      expect(await fx.repos.samlSessions.revokeTokens(randomUUID(), 'bob', null, at(MINUTE))).toBe(0);
    });

    it('are forgotten when their token has expired', async () => {
      const userId = await insertUser(fx.repos);
      await issue(userId, 'alice', null);
      expect(await fx.repos.samlSessions.deleteExpired(at(59 * MINUTE))).toBe(0);
      expect(await fx.repos.samlSessions.deleteExpired(at(60 * MINUTE))).toBe(1);
    });
  });
});
