/**
 * `upsertSamlAuthProvider` of API.md §7: creates a SAML provider, or updates the one with the same
 * issuer. (It was called `createSamlAuthProvider`; that name no longer exists, without an alias.)
 */
export const SAML_SDL = /* GraphQL */ `
extend type Mutation {
  """Creates a SAML provider, or updates the one with this issuer (admin, EE; as the REST SAML admin routes)."""
  upsertSamlAuthProvider(input: UpsertSamlAuthProviderInput): SamlAuthProvider
}

input UpsertSamlAuthProviderInput {
  name: String!
  certificate: String!
  """sha1, sha256 or sha512."""
  signatureAlgorithm: String!
  issuer: String
  entryPoint: String
  firstnameAttributeName: String
  surnameAttributeName: String
  emailAttributeName: String
  roleAttributeName: String
  defaultRoleId: String
  active: Boolean
}

type SamlAuthProvider {
  id: String!
  name: String!
  certificate: String!
  signatureAlgorithm: String!
  issuer: String
  entryPoint: String
  firstnameAttributeName: String
  surnameAttributeName: String
  emailAttributeName: String
  roleAttributeName: String
  defaultRoleId: String
  active: Boolean!
}
`;
