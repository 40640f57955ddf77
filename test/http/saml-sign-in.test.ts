import { inflateRawSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';
import { redirectOf, SP_ISSUER, samlBrowser, samlProviderBody } from '../support/saml.js';
import {
  encode,
  generateSigningKeys,
  type ResponseOptions,
  type SigningKeys,
  TestIdentityProvider,
} from '../support/saml-idp.js';

const MINUTE = 60_000;
const REFUSED = { status: 302, target: 'http://conveyor.test/login', error: 'saml' };
const SIGNED_IN = 'http://conveyor.test/login/callback';

const ALICE = {
  nameId: 'alice-7f3a',
  attributes: { email: ['Alice@Example.com'], firstName: ['Alice'], lastName: ['Liddell'], groups: ['staff'] },
};

/** The first (and only) saml:Assertion element of a Response. */
const assertionOf = (xml: string) => {
  const found = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0];
  if (!found) throw new Error('no assertion');
  return found;
};

describe.each(DIALECTS)('SAML sign-in (%s)', (dialect) => {
  let idp: TestIdentityProvider;
  let attacker: SigningKeys;
  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    attacker = await generateSigningKeys('Attacker');
  });

  let instance: TestInstance;
  let adminToken: string;
  let roles: { admin: string; user: string; custom: string };
  let browser: ReturnType<typeof samlBrowser>;
  let logger: CapturingLogger;
  beforeEach(async () => {
    logger = new CapturingLogger();
    instance = await startTestInstance(dialect, enterpriseEnv(), { logger }, { onDisk: true });
    adminToken = await installAndSignIn(instance);
    const listed = (await instance.request('GET', '/admin/roles', { token: adminToken })).body.data;
    const custom = await instance.request('POST', '/admin/roles', {
      token: adminToken,
      body: { name: 'Operators', permissions: [{ action: 'read', subject: 'Flow', conditions: [] }] },
    });
    roles = {
      admin: listed.find((r: { isAdmin: boolean }) => r.isAdmin).id,
      user: listed.find((r: { name: string }) => r.name === 'User').id,
      custom: custom.body.data.id,
    };
    const created = await instance.request('POST', '/admin/saml-auth-providers', {
      token: adminToken,
      body: samlProviderBody(idp, roles.user),
    });
    expect(created.status).toBe(201);
    browser = samlBrowser(instance);
  });
  afterEach(() => instance.close());

  const count = async (table: string) =>
    Number((await rawQuery(instance.database.url, `select count(*) as n from ${table}`))[0].n);
  const census = async () => ({ users: await count('users'), tokens: await count('access_tokens') });

  /** A whole sign-in: login URL, the IdP's answer to its request, the callback. */
  const signIn = async (options: Partial<ResponseOptions> = {}) => {
    const { requestId } = await browser.start();
    const res = await browser.post(
      idp.response({ inResponseTo: requestId, audience: SP_ISSUER, ...ALICE, ...options }),
    );
    return redirectOf(res);
  };
  const providerId = async () =>
    (await instance.request('GET', '/admin/saml-auth-providers', { token: adminToken })).body.data[0].id as string;
  const me = (token: string | null) => instance.request('GET', '/users/me', { token: token ?? 'none' });

  it('sends the browser to the IdP with an AuthnRequest for this instance', async () => {
    const { res, requestId } = await browser.start();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(idp.entryPoint);
    const xml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
    expect(xml).toContain(
      `AssertionConsumerServiceURL="http://conveyor.test/login/saml/${encodeURIComponent(SP_ISSUER)}/callback"`,
    );
    expect(xml).toContain(`>${SP_ISSUER}</saml:Issuer>`);
    expect(xml).toContain(`Destination="${idp.entryPoint}"`);
    // The request waits for its answer in the database, where every process sees it.
    const [row] = await rawQuery(instance.database.url, 'select id from saml_requests where id = ?', [requestId]);
    expect(row?.id).toBe(requestId);
  });

  it('signs a new user in, made from the attributes, with the default role, and finds them again', async () => {
    const first = await signIn();
    expect(first).toMatchObject({ status: 302, target: SIGNED_IN });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = (await me(first.token)).body.data;
    expect(user).toMatchObject({
      email: 'alice@example.com',
      fullName: 'Alice Liddell',
      status: 'active',
      roleId: roles.user,
    });

    const second = await signIn({ attributes: { ...ALICE.attributes, firstName: ['Renamed'] } });
    expect(second.target).toBe(SIGNED_IN);
    expect(second.token).not.toBe(first.token);
    const again = (await me(second.token)).body.data;
    expect(again.id).toBe(user.id);
    expect(again.fullName).toBe('Alice Liddell');
    expect(await census()).toEqual({ users: 2, tokens: 3 });
    // The account has no password: it signs in only through the IdP.
    const [row] = await rawQuery(instance.database.url, 'select password_hash from users where id = ?', [user.id]);
    expect(row.password_hash).toBeNull();
  });

  it("opens the console's cookie session at the callback, for the token the address carries", async () => {
    const { requestId } = await browser.start();
    const res = await browser.post(idp.response({ inResponseTo: requestId, audience: SP_ISSUER, ...ALICE }));
    const { target, token } = redirectOf(res);
    expect(target).toBe(SIGNED_IN);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie.startsWith(`conveyor_session=${token};`)).toBe(true);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/api\/v1/);
    const me = await instance.request('GET', '/users/me', {
      headers: { cookie: `conveyor_session=${token}`, 'x-conveyor-console': '1' },
    });
    expect(me.body.data.email).toBe('alice@example.com');

    const refused = await browser.post(idp.response({ inResponseTo: requestId, audience: SP_ISSUER, ...ALICE }));
    expect(redirectOf(refused)).toMatchObject(REFUSED);
    expect(refused.headers.get('set-cookie')).toBeNull();
  });

  it('makes a new account when the one a name id stood for was deleted', async () => {
    const first = await signIn();
    const user = (await me(first.token)).body.data;
    expect((await instance.request('DELETE', `/users/${user.id}`, { token: first.token ?? '' })).status).toBe(204);
    const again = await signIn();
    const renewed = (await me(again.token)).body.data;
    expect(renewed.id).not.toBe(user.id);
    expect(renewed.email).toBe('alice@example.com');
  });

  it.each(['sha1', 'sha512'] as const)('accepts %s signatures from a provider set to it', async (algorithm) => {
    await instance.request('PATCH', `/admin/saml-auth-providers/${await providerId()}`, {
      token: adminToken,
      body: { signatureAlgorithm: algorithm },
    });
    const result = await signIn({ algorithm });
    expect(result.target).toBe(SIGNED_IN);
  });

  it.each(['response', 'assertion', 'both'] as const)('accepts a signature of the %s', async (sign) => {
    const result = await signIn({ sign });
    expect(result.target).toBe(SIGNED_IN);
    expect((await me(result.token)).status).toBe(200);
  });

  it('gives the role of the first mapping, in mapping order, whose remote role the user holds', async () => {
    const provider = (await instance.request('GET', '/admin/saml-auth-providers', { token: adminToken })).body.data[0];
    const mapped = await instance.request('PATCH', `/admin/saml-auth-providers/${provider.id}/role-mappings`, {
      token: adminToken,
      body: [
        { remoteRoleName: 'operators', roleId: roles.custom },
        { remoteRoleName: 'admins', roleId: roles.admin },
      ],
    });
    expect(mapped.status).toBe(200);

    const roleOf = async (nameId: string, groups: string[]) => {
      const result = await signIn({
        nameId,
        attributes: { email: [`${nameId}@example.com`], groups },
      });
      return (await me(result.token)).body.data.roleId;
    };
    expect(await roleOf('both', ['admins', 'operators'])).toBe(roles.custom);
    expect(await roleOf('admin', ['admins'])).toBe(roles.admin);
    expect(await roleOf('nobody', ['cleaners'])).toBe(roles.user);
    expect(await roleOf('none', [])).toBe(roles.user);
    // The IdP's roles decide at every sign-in.
    expect(await roleOf('admin', ['operators'])).toBe(roles.custom);
  });

  it('refuses an address held by an account that did not come from this provider', async () => {
    const before = await census();
    const result = await signIn({ attributes: { email: ['ada@example.com'], firstName: ['Mallory'] } });
    expect(result).toMatchObject(REFUSED);
    expect(await census()).toEqual(before);
  });

  describe('refuses, creating no user and issuing no token,', () => {
    /** The refusal reasons logged, so that each attack is refused for what it is. */
    const reasons = () =>
      logger.entries.filter((e) => e.message === 'SAML sign-in refused').map((e) => String(e.fields.reason));
    const forged = async (build: (requestId: string) => string, reason: RegExp) => {
      const before = await census();
      const { requestId } = await browser.start();
      const result = redirectOf(await browser.post(build(requestId)));
      expect(result).toMatchObject(REFUSED);
      expect(result.token).toBeNull();
      expect(await census()).toEqual(before);
      expect(reasons()).toEqual([expect.stringMatching(reason)]);
    };
    const answer = (requestId: string, options: Partial<ResponseOptions> = {}): ResponseOptions => ({
      inResponseTo: requestId,
      audience: SP_ISSUER,
      ...ALICE,
      ...options,
    });

    it('an unsigned response', () => forged((id) => idp.response(answer(id, { sign: 'none' })), /Invalid signature/));

    it('a response signed by another key', () =>
      forged((id) => idp.response(answer(id, { signer: attacker })), /Invalid signature/));

    it('a signature with a weaker algorithm than the provider says (SHA-1 for SHA-256)', () =>
      forged((id) => idp.response(answer(id, { algorithm: 'sha1' })), /rsa-sha1, not the provider's sha256/));

    it("an HMAC keyed with the provider's certificate (key confusion)", async () => {
      await instance.request('PATCH', `/admin/saml-auth-providers/${await providerId()}`, {
        token: adminToken,
        body: { signatureAlgorithm: 'sha1' },
      });
      await forged((id) => idp.response(answer(id, { algorithm: 'hmac-sha1' })), /Invalid signature/);
    });

    it('an assertion changed after it was signed', () =>
      forged(
        (id) => encode(idp.responseXml(answer(id, { sign: 'assertion' })).replace(ALICE.nameId, 'admin')),
        /Invalid signature/,
      ));

    it('a second, unsigned assertion beside the signed one (signature wrapping)', () =>
      forged((id) => {
        const signed = idp.responseXml(answer(id, { sign: 'assertion' }));
        const evil = assertionOf(idp.responseXml(answer(id, { sign: 'none', nameId: 'admin' })));
        return encode(signed.replace('</samlp:Response>', `${evil}</samlp:Response>`));
      }, /multiple assertions/));

    it('a forged assertion in place of the signed one, which is moved aside (signature wrapping)', () =>
      forged((id) => {
        const signed = idp.responseXml(answer(id, { sign: 'assertion' }));
        const original = assertionOf(signed);
        const evil = assertionOf(idp.responseXml(answer(id, { sign: 'none', nameId: 'admin' })));
        const wrapped = signed
          .replace(original, evil)
          .replace('<samlp:Status>', `<samlp:Extensions>${original}</samlp:Extensions><samlp:Status>`);
        return encode(wrapped);
      }, /Invalid signature/));

    it('an expired assertion', () =>
      forged(
        (id) =>
          idp.response(
            answer(id, {
              notBefore: new Date(Date.now() - 10 * MINUTE),
              notOnOrAfter: new Date(Date.now() - 2 * MINUTE),
            }),
          ),
        /expired|No valid subject confirmation/,
      ));

    it('an assertion not valid yet', () =>
      forged(
        (id) => idp.response(answer(id, { notBefore: new Date(Date.now() + 5 * MINUTE) })),
        /not yet valid|No valid subject confirmation/,
      ));

    it('an assertion for another audience', () =>
      forged(
        (id) => idp.response(answer(id, { audience: 'https://another-sp.example/metadata' })),
        /audience mismatch/,
      ));

    it('an answer to a request we never sent', () =>
      forged(() => idp.response(answer('_0123456789abcdef0123456789abcdef01234567')), /InResponseTo is not valid/));

    it('an unsolicited response (no InResponseTo)', () =>
      forged(() => idp.response(answer('', { inResponseTo: null })), /InResponseTo is missing/));

    it('XML with a DOCTYPE and an entity', () =>
      forged((id) => idp.response(answer(id, { doctype: true })), /DOCTYPE/));

    it('a body that is not SAML', () => forged(() => encode('not xml at all'), /./));

    it('a replayed response', async () => {
      const { requestId } = await browser.start();
      const response = idp.response(answer(requestId));
      expect(redirectOf(await browser.post(response)).target).toBe(SIGNED_IN);
      const before = await census();
      expect(redirectOf(await browser.post(response))).toMatchObject(REFUSED);
      expect(await census()).toEqual(before);
      // Its request was answered once and is gone.
      expect(reasons()).toEqual([expect.stringMatching(/InResponseTo is not valid/)]);
    });

    it('a replayed assertion answering a new request', async () => {
      // The IdP signs only the assertion and does not name the request in it: the unsigned
      // response around it can be made to answer any request.
      const first = await browser.start();
      const signed = idp.responseXml(answer(first.requestId, { sign: 'assertion', confirmsRequest: false }));
      expect(redirectOf(await browser.post(encode(signed))).target).toBe(SIGNED_IN);
      const before = await census();
      const second = await browser.start();
      const replayed = signed.replace(first.requestId, second.requestId);
      expect(redirectOf(await browser.post(encode(replayed)))).toMatchObject(REFUSED);
      expect(await census()).toEqual(before);
      expect(reasons()).toEqual(['the assertion was used before']);
    });

    it('the second of two deliveries of one response at once', async () => {
      const { requestId } = await browser.start();
      const response = idp.response(answer(requestId));
      const results = (await Promise.all([browser.post(response), browser.post(response)])).map(redirectOf);
      expect(results.map((r) => r.target).sort()).toEqual(['http://conveyor.test/login', SIGNED_IN]);
      expect(await census()).toMatchObject({ tokens: 2 });
    });
  });

  it('ends the SAML session a logout request names, and only that one', async () => {
    const first = await signIn({ sessionIndex: 'session-1' });
    const second = await signIn({ sessionIndex: 'session-2' });
    const res = await browser.logout(idp.logoutRequest({ nameId: ALICE.nameId, sessionIndex: 'session-1' }), 'back');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(idp.entryPoint);
    expect(location.searchParams.get('SAMLResponse')).toBeTruthy();
    expect(location.searchParams.get('RelayState')).toBe('back');
    expect((await me(first.token)).status).toBe(401);
    expect((await me(second.token)).status).toBe(200);

    // Without a session index, every session of the user at the provider ends.
    await browser.logout(idp.logoutRequest({ nameId: ALICE.nameId }));
    expect((await me(second.token)).status).toBe(401);
  });

  it('ignores a logout request it cannot trust', async () => {
    const session = await signIn();
    for (const request of [
      idp.logoutRequest({ nameId: ALICE.nameId, signer: attacker }),
      encode(`<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0"/>`),
    ]) {
      expect(redirectOf(await browser.logout(request))).toMatchObject(REFUSED);
    }
    expect((await me(session.token)).status).toBe(200);
  });

  it('refuses unknown and inactive providers', async () => {
    const provider = (await instance.request('GET', '/admin/saml-auth-providers', { token: adminToken })).body.data[0];
    expect(
      redirectOf(
        await samlBrowser(instance, 'nobody').post(idp.response({ inResponseTo: null, audience: 'nobody', ...ALICE })),
      ),
    ).toMatchObject(REFUSED);
    expect(redirectOf(await instance.request('GET', '/login/saml/nobody', { mount: '' }))).toMatchObject(REFUSED);

    const { requestId } = await browser.start();
    await instance.request('PATCH', `/admin/saml-auth-providers/${provider.id}`, {
      token: adminToken,
      body: { active: false },
    });
    const before = await census();
    const late = await browser.post(idp.response({ inResponseTo: requestId, audience: SP_ISSUER, ...ALICE }));
    expect(redirectOf(late)).toMatchObject(REFUSED);
    expect(await census()).toEqual(before);
    expect(
      redirectOf(await instance.request('GET', `/login/saml/${encodeURIComponent(SP_ISSUER)}`, { mount: '' })),
    ).toMatchObject(REFUSED);
  });
});

describe.each(DIALECTS)('SAML sign-in without a licence (%s)', (dialect) => {
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('answers 403 EnterpriseLicenseRequiredError', async () => {
    instance = await startTestInstance(dialect);
    for (const [method, path] of [
      ['GET', '/login/saml/anything'],
      ['POST', '/login/saml/anything/callback'],
      ['POST', '/logout/saml/anything'],
    ] as const) {
      const res = await instance.request(method, path, { mount: '' });
      expect(res.status).toBe(403);
      expect(res.body.meta.type).toBe('EnterpriseLicenseRequiredError');
    }
  });
});

describe.each(DIALECTS)('SAML sign-in budget per address (%s)', (dialect) => {
  let idp: TestIdentityProvider;
  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
  });
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('answers 429 with Retry-After past the budget, storing nothing more, on every SAML route', async () => {
    const env = { ...enterpriseEnv(), TRUST_PROXY: 'true', RATE_LIMIT_SAML_IP: '5/15m' };
    instance = await startTestInstance(dialect, env, {}, { onDisk: true });
    const adminToken = await installAndSignIn(instance);
    const roles = (await instance.request('GET', '/admin/roles', { token: adminToken })).body.data;
    const userRole = roles.find((r: { name: string }) => r.name === 'User').id;
    await instance.request('POST', '/admin/saml-auth-providers', {
      token: adminToken,
      body: samlProviderBody(idp, userRole),
    });
    const base = `/login/saml/${encodeURIComponent(SP_ISSUER)}`;
    const from = (address: string) => ({ mount: '', headers: { 'x-forwarded-for': address } });
    const requests = async () =>
      Number((await rawQuery(instance.database.url, 'select count(*) as n from saml_requests'))[0].n);

    for (let i = 0; i < 5; i++) expect((await instance.request('GET', base, from('203.0.113.66'))).status).toBe(302);
    const limited = await instance.request('GET', base, from('203.0.113.66'));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ errors: { general: [expect.any(String)] }, meta: { type: 'RateLimitedError' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Unknown issuers count too: a scanner cannot go round the budget by making names up.
    expect((await instance.request('GET', '/login/saml/made-up', from('203.0.113.66'))).status).toBe(429);
    expect(await requests()).toBe(5);

    const form = { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.66' };
    for (const path of [`${base}/callback`, `/logout/saml/${encodeURIComponent(SP_ISSUER)}`]) {
      const res = await instance.request('POST', path, { mount: '', headers: form, body: 'SAMLResponse=x' });
      expect(res.status).toBe(429);
    }
    // Another address has its own budget.
    expect((await instance.request('GET', base, from('198.51.100.7'))).status).toBe(302);
    expect(await requests()).toBe(6);
  });
});
