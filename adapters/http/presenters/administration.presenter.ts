import type { CreatedApiToken } from '../../../core/application/api-tokens/create-api-token.js';
import type { ApiToken } from '../../../core/domain/api-token.js';
import type { InstanceConfig } from '../../../core/domain/instance.js';
import type { LicenseStatus } from '../../../core/domain/license.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

export const presentApiToken = (token: ApiToken): Answer<'ApiToken'> => ({
  id: token.id,
  token: token.maskedToken,
  userId: token.userId,
  createdAt: epochMs(token.createdAt),
});

/** The one answer that holds the whole token. */
export const presentCreatedApiToken = (created: CreatedApiToken): Answer<'NewApiToken'> => ({
  id: created.id,
  token: created.token,
  createdAt: epochMs(created.createdAt),
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

export const presentLicense = (license: LicenseStatus): Answer<'License'> => ({
  id: license.id,
  name: license.name,
  expireAt: epochMs(license.expireAt),
  verified: license.verified,
});
