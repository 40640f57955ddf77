import { type SamlAuthProvider, type SamlRoleMapping, samlPaths } from '../../../core/domain/saml.js';

/** Providers as administrators and the login page see them; `publicUrl` is where this server is reached. */
export const samlPresenters = (publicUrl: string) => {
  const loginUrl = (provider: SamlAuthProvider) => `${publicUrl}${samlPaths(provider.issuer).login}`;
  return {
    /** Every field: the certificate is the provider's public one. */
    presentSamlAuthProvider: (provider: SamlAuthProvider) => ({
      id: provider.id,
      name: provider.name,
      certificate: provider.certificate,
      signatureAlgorithm: provider.signatureAlgorithm,
      issuer: provider.issuer,
      entryPoint: provider.entryPoint,
      firstnameAttributeName: provider.firstnameAttributeName,
      surnameAttributeName: provider.surnameAttributeName,
      emailAttributeName: provider.emailAttributeName,
      roleAttributeName: provider.roleAttributeName,
      defaultRoleId: provider.defaultRoleId,
      active: provider.active,
      loginUrl: loginUrl(provider),
      createdAt: provider.createdAt.toISOString(),
      updatedAt: provider.updatedAt.toISOString(),
    }),

    /** What a login page needs, before anyone is signed in. */
    presentPublicSamlAuthProvider: (provider: SamlAuthProvider) => ({
      id: provider.id,
      name: provider.name,
      loginUrl: loginUrl(provider),
      issuer: provider.issuer,
    }),
  };
};

export const presentRoleMapping = (mapping: SamlRoleMapping) => ({
  id: mapping.id,
  samlAuthProviderId: mapping.samlAuthProviderId,
  roleId: mapping.roleId,
  remoteRoleName: mapping.remoteRoleName,
});
