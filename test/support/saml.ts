import type { ApiResponse, TestInstance } from './http.js';
import { authnRequestOf } from './saml-idp.js';

/** The entity id the tests' instance presents to the test IdP. */
export const SP_ISSUER = 'https://conveyor.test/saml/sp';

/** The attribute names the test IdP sends. */
export const ATTRIBUTE_NAMES = {
  firstnameAttributeName: 'firstName',
  surnameAttributeName: 'lastName',
  emailAttributeName: 'email',
  roleAttributeName: 'groups',
} as const;

/** A complete, active provider body for an IdP (the test IdP, or one with only a certificate). */
export const samlProviderBody = (
  idp: { readonly certificate: string; readonly entryPoint?: string },
  defaultRoleId: string,
  overrides: object = {},
) => ({
  name: 'Test IdP',
  certificate: idp.certificate,
  signatureAlgorithm: 'sha256',
  issuer: SP_ISSUER,
  entryPoint: idp.entryPoint ?? 'https://idp.test/sso',
  ...ATTRIBUTE_NAMES,
  defaultRoleId,
  active: true,
  ...overrides,
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The browser's side of SAML sign-in, against an instance's sign-in routes. */
export const samlBrowser = (instance: TestInstance, issuer = SP_ISSUER) => {
  const base = `/login/saml/${encodeURIComponent(issuer)}`;
  return {
    /** Opens the login URL; returns the redirect and the id of the AuthnRequest it carries. */
    async start(): Promise<{ res: ApiResponse; requestId: string }> {
      const res = await instance.request('GET', base, { mount: '' });
      if (res.status !== 302) throw new Error(`login did not redirect: ${res.status} ${JSON.stringify(res.body)}`);
      return { res, requestId: authnRequestOf(res.headers.get('location') ?? '').id };
    },
    /** Posts the IdP's answer to the callback, as the browser does. */
    post: (samlResponse: string) =>
      instance.request('POST', `${base}/callback`, {
        mount: '',
        headers: FORM,
        body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      }),
    logout: (samlRequest: string, relayState?: string) =>
      instance.request('POST', `/logout/saml/${encodeURIComponent(issuer)}`, {
        mount: '',
        headers: FORM,
        body: new URLSearchParams({
          SAMLRequest: samlRequest,
          ...(relayState && { RelayState: relayState }),
        }).toString(),
      }),
  };
};

/** Where a redirect goes; its token when it is the web app's sign-in callback. */
export const redirectOf = (res: ApiResponse) => {
  const location = new URL(res.headers.get('location') ?? 'http://missing.invalid/');
  return {
    status: res.status,
    target: `${location.origin}${location.pathname}`,
    token: location.searchParams.get('token'),
    error: location.searchParams.get('error'),
    location,
  };
};
