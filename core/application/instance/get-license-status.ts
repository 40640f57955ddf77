import { type LicenseStatus, licenseStatus } from '../../domain/license.js';
import type { CoreDeps } from '../deps.js';

export const makeGetLicenseStatus =
  ({ license, clock }: Pick<CoreDeps, 'license' | 'clock'>) =>
  (): LicenseStatus =>
    licenseStatus(license.current(), clock.now());
