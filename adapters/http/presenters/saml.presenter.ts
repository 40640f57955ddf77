import { type SamlAuthProvider, type SamlRoleMapping, samlPaths } from '../../../core/domain/saml.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

/** Providers as administrators and the login page see them; `publicUrl` is where this server is reached. */
export const samlPresenters = (publicUrl: string) => {
  const loginUrl = (provider: SamlAuthProvider) => `${publicUrl}${samlPaths(provider.issuer).login}`;
  return {
    /** Every field: the certificate is the provider's public one. */
    presentSamlAuthProvider: (provider: SamlAuthProvider): Answer<'SamlAuthProvider'> => ({
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
      createdAt: epochMs(provider.createdAt),
      updatedAt: epochMs(provider.updatedAt),
    }),

    /** What a login page needs, before anyone is signed in. */
    presentPublicSamlAuthProvider: (provider: SamlAuthProvider): Answer<'PublicSamlAuthProvider'> => ({
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
