import { samlProviderBody } from '../support/saml.js';
import { generateSigningKeys } from '../support/saml-idp.js';
import type { ActorFactory } from './actors.js';
import { adminOnly, everyone, type RouteCase, unique } from './route-case.js';

/** A provider of the test IdP's kind, made once; its certificate is one of the run's own. */
export const samlFixtures = async (fx: ActorFactory) => {
  const { certificate } = await generateSigningKeys();
  const providerBody = () =>
    samlProviderBody({ certificate }, fx.customRoleId, {
      name: `IdP ${unique()}`,
      issuer: `https://conveyor.test/sp/${unique()}`,
    });
  const provider = await fx.useCases.createSamlAuthProvider(fx.adminActor, providerBody());
  if (!provider.ok) throw new Error(`could not create a SAML provider: ${provider.error.code}`);
  return { samlAuthProviderId: provider.value.id, samlProviderBody: providerBody };
};

const provider = (fx: { samlAuthProviderId: string }) => `/admin/saml-auth-providers/${fx.samlAuthProviderId}`;

/** Single sign-on administration and the public provider list (API.md §6.10): all enterprise. */
export const SAML_ROUTES: readonly RouteCase[] = [
  { method: 'GET', route: '/saml-auth-providers', ee: true, path: () => '/saml-auth-providers', expect: everyone(200) },
  {
    method: 'GET',
    route: '/admin/saml-auth-providers',
    ee: true,
    path: () => '/admin/saml-auth-providers',
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/admin/saml-auth-providers/:samlAuthProviderId',
    ee: true,
    path: provider,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/admin/saml-auth-providers',
    ee: true,
    path: () => '/admin/saml-auth-providers',
    body: (fx) => fx.samlProviderBody(),
    expect: adminOnly(201),
  },
  {
    method: 'PATCH',
    route: '/admin/saml-auth-providers/:samlAuthProviderId',
    ee: true,
    path: provider,
    body: () => ({ name: `Renamed ${unique()}` }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/admin/saml-auth-providers/:samlAuthProviderId/role-mappings',
    ee: true,
    path: (fx) => `${provider(fx)}/role-mappings`,
    expect: adminOnly(200),
  },
  {
    method: 'PATCH',
    route: '/admin/saml-auth-providers/:samlAuthProviderId/role-mappings',
    ee: true,
    path: (fx) => `${provider(fx)}/role-mappings`,
    body: (fx) => [{ remoteRoleName: 'matrix', roleId: fx.customRoleId }],
    expect: adminOnly(200),
  },
];
