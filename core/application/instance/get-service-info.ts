import type { ServiceInfo } from '../../domain/instance.js';
import { licenseStatus } from '../../domain/license.js';
import { RELEASE } from '../../domain/release.js';
import type { CoreDeps } from '../deps.js';

export const makeGetServiceInfo =
  ({ repos, settings, license, clock }: Pick<CoreDeps, 'repos' | 'settings' | 'license' | 'clock'>) =>
  async (): Promise<ServiceInfo> => {
    const config = await repos.config.get();
    return {
      installationCompleted: config.installationCompleted,
      version: RELEASE,
      isEnterprise: licenseStatus(license.current(), clock.now()).verified,
      isCloud: false,
      docsUrl: settings.docsUrl,
      registrationEnabled: config.registrationEnabled,
    };
  };
