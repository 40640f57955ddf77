import type { ApiToken } from '../../../core/domain/api-token.js';
import type { InstanceConfig } from '../../../core/domain/instance.js';
import type { LicenseStatus } from '../../../core/domain/license.js';

export const presentApiToken = (token: ApiToken) => ({
  id: token.id,
  token: token.maskedToken,
  userId: token.userId,
  createdAt: token.createdAt.toISOString(),
});

export const presentConfig = (config: InstanceConfig) => ({
  title: config.title,
  primaryMainColor: config.primaryMainColor,
  primaryDarkColor: config.primaryDarkColor,
  primaryLightColor: config.primaryLightColor,
  logoSvgData: config.logoSvgData,
  footerLinks: config.footerLinks,
  enableTemplates: config.enableTemplates,
  registrationEnabled: config.registrationEnabled,
  installationCompleted: config.installationCompleted,
});

export const presentLicense = (license: LicenseStatus) => ({
  id: license.id,
  name: license.name,
  expireAt: license.expireAt?.toISOString() ?? null,
  verified: license.verified,
});
