/**
 * `upsertSamlAuthProvider` of API.md §7: creates a SAML provider, or updates the one with the same
 * issuer. (It was called `createSamlAuthProvider`; that name no longer exists, without an alias.)
 *
 * TODO(issue 7): NOT part of the served schema yet. The core use case `upsertSamlAuthProvider` is
 * being written on the `saml` branch; until it is merged there is nothing honest to call. To serve
 * it: add `SAML_SDL` to `SCHEMA_PARTS` in `schema.ts`, add the resolver named in `resolvers.ts`,
 * add its row to `test/authorization/graphql-operations.ts` (the coverage test asks for it), and turn
 * the "not yet served" assertions of `schema.test.ts` around.
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
