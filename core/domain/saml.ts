import { normalizeEmail } from './user.js';

export const SAML_SIGNATURE_ALGORITHMS = ['sha1', 'sha256', 'sha512'] as const;
export type SamlSignatureAlgorithm = (typeof SAML_SIGNATURE_ALGORITHMS)[number];

export const isSamlSignatureAlgorithm = (value: string): value is SamlSignatureAlgorithm =>
  (SAML_SIGNATURE_ALGORITHMS as readonly string[]).includes(value);

/**
 * What an administrator sets on an identity provider users may sign in with. `issuer` is the entity
 * id this instance presents to that provider (the audience its assertions must name), and the
 * provider's key in sign-in paths.
 */
export interface SamlAuthProviderFields {
  readonly name: string;
  /** The provider's signing certificate, PEM. Public material. */
  readonly certificate: string;
  readonly signatureAlgorithm: SamlSignatureAlgorithm;
  readonly issuer: string;
  /** The provider's single sign-on address, where AuthnRequests are sent. */
  readonly entryPoint: string;
  readonly firstnameAttributeName: string;
  readonly surnameAttributeName: string;
  readonly emailAttributeName: string;
  readonly roleAttributeName: string;
  /** The role of users no role mapping matches. */
  readonly defaultRoleId: string;
  readonly active: boolean;
}

export interface SamlAuthProvider extends SamlAuthProviderFields {
  readonly id: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A remote role name that gives a local role; mappings are tried in their order. */
export interface SamlRoleMapping {
  readonly id: string;
  readonly samlAuthProviderId: string;
  readonly roleId: string;
  readonly remoteRoleName: string;
}

/** Attribute values of an assertion, each attribute as a list. */
export type SamlAttributes = Readonly<Record<string, readonly string[]>>;

/** The role a SAML sign-in gives: the first mapping whose remote role the user holds, else the default. */
export const mappedRoleId = (
  mappings: readonly SamlRoleMapping[],
  remoteRoles: readonly string[],
  defaultRoleId: string,
): string => mappings.find((m) => remoteRoles.includes(m.remoteRoleName))?.roleId ?? defaultRoleId;

const first = (attributes: SamlAttributes, name: string): string =>
  (attributes[name] ?? []).map((value) => value.trim()).find((value) => value !== '') ?? '';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Who a new SAML user is, from the provider's attributes: the e-mail attribute (or a name id that
 * is an e-mail address), and the first and last names (or the e-mail when the IdP sends none).
 * Null when no e-mail address can be found.
 */
export const samlNewUserProfile = (
  provider: Pick<SamlAuthProvider, 'emailAttributeName' | 'firstnameAttributeName' | 'surnameAttributeName'>,
  nameId: string,
  attributes: SamlAttributes,
): { readonly email: string; readonly fullName: string } | null => {
  const candidate = first(attributes, provider.emailAttributeName) || nameId.trim();
  if (!EMAIL.test(candidate) || candidate.length > 254) return null;
  const email = normalizeEmail(candidate);
  const fullName = [
    first(attributes, provider.firstnameAttributeName),
    first(attributes, provider.surnameAttributeName),
  ]
    .filter(Boolean)
    .join(' ')
    .slice(0, 255);
  return { email, fullName: fullName || email };
};

/** Paths of the sign-in endpoints of a provider, relative to the server's public address. */
export const samlPaths = (issuer: string) => {
  const login = `/login/saml/${encodeURIComponent(issuer)}`;
  return { login, callback: `${login}/callback`, logout: `/logout/saml/${encodeURIComponent(issuer)}` };
};

/** How long an AuthnRequest may wait for its answer (the user may take a while at the IdP). */
export const SAML_REQUEST_TTL_MS = 15 * 60_000;
/** Clock difference tolerated between this server and an IdP. */
export const SAML_CLOCK_SKEW_MS = 60_000;
