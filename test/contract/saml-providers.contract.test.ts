import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uuidGenerator } from '../../adapters/auth/system.js';
import { createNodeSamlGateway } from '../../adapters/saml/node-saml-gateway.js';
import { makeCreateSamlAuthProvider } from '../../core/application/saml/create-saml-auth-provider.js';
import { makeUpdateSamlAuthProvider } from '../../core/application/saml/update-saml-auth-provider.js';
import { makeUpsertSamlAuthProvider } from '../../core/application/saml/upsert-saml-auth-provider.js';
import type { Actor } from '../../core/domain/actor.js';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { samlProviderBody } from '../support/saml.js';
import { generateSigningKeys, type SigningKeys } from '../support/saml-idp.js';
import { insertUser, openFixture, type PersistenceFixture, roleId } from './persistence-fixture.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

/** The provider use cases on a real database, as GraphQL and REST call them. */
describe.each(DIALECTS)('SAML provider use cases (%s)', (dialect) => {
  let keys: SigningKeys;
  beforeAll(async () => {
    keys = await generateSigningKeys();
  });

  let fx: PersistenceFixture;
  let admin: Actor;
  let user: Actor;
  let userRoleId: string;
  let useCases: {
    create: ReturnType<typeof makeCreateSamlAuthProvider>;
    update: ReturnType<typeof makeUpdateSamlAuthProvider>;
    upsert: ReturnType<typeof makeUpsertSamlAuthProvider>;
  };
  beforeEach(async () => {
    fx = await openFixture(dialect);
    const deps = {
      repos: fx.repos,
      uow: fx.uow,
      clock: new ManualClock(),
      ids: uuidGenerator,
      saml: createNodeSamlGateway({ publicUrl: 'https://conveyor.test' }),
    };
    useCases = {
      create: makeCreateSamlAuthProvider(deps),
      update: makeUpdateSamlAuthProvider(deps),
      upsert: makeUpsertSamlAuthProvider(deps),
    };
    const actorOf = async (role: 'Admin' | 'User'): Promise<Actor> => {
      const found = await fx.repos.users.findById(await insertUser(fx.repos, { role }));
      if (!found) throw new Error('user not stored');
      return { user: found, credential: { kind: 'access-token', tokenId: 'unused' } };
    };
    admin = await actorOf('Admin');
    user = await actorOf('User');
    userRoleId = await roleId(fx.repos, 'User');
  });
  afterEach(() => fx.close());

  /** Every field but `active`. */
  const complete = () => {
    const { active: _, ...fields } = samlProviderBody(keys, userRoleId, {
      name: 'Okta',
      issuer: 'https://conveyor.test/sp',
    });
    return fields;
  };

  describe('upsertSamlAuthProvider', () => {
    it('creates a provider, inactive unless told otherwise, with its certificate as PEM', async () => {
      const bare = keys.certificate.replace(/-----[A-Z ]+-----|\s/g, '');
      const result = await useCases.upsert(admin, { ...complete(), certificate: bare });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value).toMatchObject({ ...complete(), certificate: expect.any(String), active: false });
      expect(result.value.certificate.trim()).toBe(keys.certificate.trim());
      expect(await fx.repos.samlProviders.list({ activeOnly: false })).toHaveLength(1);
    });

    it('updates the provider that has the issuer, changing only what is given', async () => {
      const created = await useCases.upsert(admin, { ...complete(), active: true });
      const updated = await useCases.upsert(admin, {
        name: 'Okta (new)',
        certificate: keys.certificate,
        signatureAlgorithm: 'sha512',
        issuer: 'https://conveyor.test/sp',
        entryPoint: null,
      });
      expect(updated.ok && created.ok && updated.value.id === created.value.id).toBe(true);
      expect(updated.ok && updated.value).toMatchObject({
        name: 'Okta (new)',
        signatureAlgorithm: 'sha512',
        entryPoint: 'https://idp.test/sso',
        active: true,
      });
      expect(await fx.repos.samlProviders.list({ activeOnly: false })).toHaveLength(1);
    });

    it('requires name, certificate and signatureAlgorithm, for an update too', async () => {
      await useCases.upsert(admin, complete());
      const result = await useCases.upsert(admin, { issuer: 'https://conveyor.test/sp', name: 'Renamed' });
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'input.invalid',
          fields: { certificate: ['is required.'], signatureAlgorithm: ['is required.'] },
        },
      });
      expect((await fx.repos.samlProviders.findByIssuer('https://conveyor.test/sp'))?.name).toBe('Okta');
    });

    it('requires every field of a new provider', async () => {
      const result = await useCases.upsert(admin, {
        name: 'Okta',
        certificate: keys.certificate,
        signatureAlgorithm: 'sha1',
      });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.code === 'input.invalid' && Object.keys(result.error.fields).sort()).toEqual([
        'defaultRoleId',
        'emailAttributeName',
        'entryPoint',
        'firstnameAttributeName',
        'issuer',
        'roleAttributeName',
        'surnameAttributeName',
      ]);
    });

    it('refuses what does not check out, naming each field', async () => {
      const result = await useCases.upsert(admin, {
        ...complete(),
        name: '   ',
        certificate: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----',
        signatureAlgorithm: 'md5',
        entryPoint: 'javascript:alert(1)',
        defaultRoleId: MISSING,
      });
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'input.invalid',
          fields: {
            name: ['is required.'],
            certificate: ['must be an X.509 certificate (PEM or base64).'],
            signatureAlgorithm: ['must be one of sha1, sha256, sha512.'],
            entryPoint: ['must be an http(s) URL.'],
            defaultRoleId: ['does not exist.'],
          },
        },
      });
      expect(await fx.repos.samlProviders.list({ activeOnly: false })).toEqual([]);
    });

    it('refuses two certificates in one field', async () => {
      const result = await useCases.upsert(admin, { ...complete(), certificate: keys.certificate + keys.certificate });
      expect(!result.ok && result.error).toMatchObject({ fields: { certificate: [expect.any(String)] } });
    });

    it('is for administrators only', async () => {
      expect(await useCases.upsert(user, complete())).toEqual({
        ok: false,
        error: { code: 'auth.forbidden', reason: 'Only administrators can do this.' },
      });
    });
  });

  describe('createSamlAuthProvider and updateSamlAuthProvider', () => {
    it('refuse a second provider with a taken issuer, and a change to one', async () => {
      const first = await useCases.create(admin, complete());
      const second = await useCases.create(admin, { ...complete(), issuer: 'https://conveyor.test/other' });
      expect(await useCases.create(admin, complete())).toEqual({
        ok: false,
        error: { code: 'unique.violation', field: 'issuer' },
      });
      if (!first.ok || !second.ok) throw new Error('not created');
      expect(await useCases.update(admin, second.value.id, { issuer: complete().issuer })).toEqual({
        ok: false,
        error: { code: 'unique.violation', field: 'issuer' },
      });
    });

    it('update answers not found for an unknown provider', async () => {
      expect(await useCases.update(admin, MISSING, { name: 'x' })).toEqual({
        ok: false,
        error: { code: 'resource.not_found', resource: 'SamlAuthProvider' },
      });
    });
  });
});
