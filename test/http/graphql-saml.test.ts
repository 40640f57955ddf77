import { GraphQLClient } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';
import { samlProviderBody } from '../support/saml.js';
import { generateSigningKeys } from '../support/saml-idp.js';

const UPSERT = `mutation Upsert($input: UpsertSamlAuthProviderInput) {
  upsertSamlAuthProvider(input: $input) { id name issuer signatureAlgorithm active defaultRoleId }
}`;

/** Sends the mutation with a real GraphQL client; the answer's data and errors together. */
const upsert = async (url: string, token: string, input: unknown) => {
  const client = new GraphQLClient(`${url}/graphql`, {
    headers: { authorization: `Bearer ${token}` },
    errorPolicy: 'all',
  });
  const { data, errors } = await client.rawRequest<any>(UPSERT, { input });
  return { data, errors: errors as readonly any[] | undefined };
};

describe.each(DIALECTS)('GraphQL upsertSamlAuthProvider (%s)', (dialect) => {
  let instance: TestInstance;
  let url: string;
  let close: () => Promise<void>;
  let token: string;
  let userRoleId: string;
  let certificate: string;
  beforeAll(async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    ({ url, close } = await listen(instance));
    token = await installAndSignIn(instance);
    const roles = (await instance.request('GET', '/admin/roles', { token })).body.data;
    userRoleId = roles.find((r: { name: string }) => r.name === 'User').id;
    ({ certificate } = await generateSigningKeys());
  });
  afterAll(async () => {
    await close();
    await instance.close();
  });

  it('creates a provider, then updates the one with the same issuer', async () => {
    const issuer = 'https://conveyor.test/sp/graphql';
    const created = await upsert(url, token, samlProviderBody({ certificate }, userRoleId, { issuer }));
    expect(created.errors).toBeUndefined();
    const id = created.data.upsertSamlAuthProvider.id;
    expect(created.data.upsertSamlAuthProvider).toMatchObject({ name: 'Test IdP', issuer, active: true });

    // An update needs only the three required fields and the issuer that finds the provider.
    const updated = await upsert(url, token, { name: 'Renamed', certificate, signatureAlgorithm: 'sha512', issuer });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.upsertSamlAuthProvider).toMatchObject({ id, name: 'Renamed', signatureAlgorithm: 'sha512' });

    const stored = await instance.request('GET', `/admin/saml-auth-providers/${id}`, { token });
    expect(stored.body.data).toMatchObject({
      name: 'Renamed',
      signatureAlgorithm: 'sha512',
      defaultRoleId: userRoleId,
    });
    const all = await instance.request('GET', '/admin/saml-auth-providers', { token });
    expect(all.body.data.filter((p: { issuer: string }) => p.issuer === issuer)).toHaveLength(1);
  });

  it('refuses what REST refuses, field by field, and creates nothing', async () => {
    const issuer = 'https://conveyor.test/sp/refused';
    const res = await upsert(
      url,
      token,
      samlProviderBody({ certificate: 'not a certificate' }, userRoleId, { issuer, signatureAlgorithm: 'md5' }),
    );
    expect(res.data).toEqual({ upsertSamlAuthProvider: null });
    expect(res.errors?.[0].extensions).toMatchObject({
      code: 'ValidationError',
      fields: { certificate: expect.any(Array), signatureAlgorithm: expect.any(Array) },
    });
    const all = await instance.request('GET', '/admin/saml-auth-providers', { token });
    expect(all.body.data.some((p: { issuer: string }) => p.issuer === issuer)).toBe(false);
  });

  it('refuses a document without the required fields before running it', async () => {
    const res = await upsert(url, token, { name: 'No certificate', signatureAlgorithm: 'sha256' });
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BadRequestError' });
  });
});

describe.each(DIALECTS)('GraphQL upsertSamlAuthProvider without a licence (%s)', (dialect) => {
  it('answers EnterpriseLicenseRequiredError and creates nothing', async () => {
    const instance = await startTestInstance(dialect);
    const { url, close } = await listen(instance);
    try {
      const token = await installAndSignIn(instance);
      const { certificate } = await generateSigningKeys();
      const res = await upsert(url, token, samlProviderBody({ certificate }, '00000000-0000-4000-8000-000000000000'));
      expect(res.data).toEqual({ upsertSamlAuthProvider: null });
      expect(res.errors?.[0].extensions).toMatchObject({ code: 'EnterpriseLicenseRequiredError' });
    } finally {
      await close();
      await instance.close();
    }
  });
});
