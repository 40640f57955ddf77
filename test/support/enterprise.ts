import { generateLicenseKeyPair, signLicense } from '../../adapters/auth/license.js';

const DAY = 24 * 60 * 60_000;

/** Environment for an instance with a valid enterprise licence signed by a key pair of the test's own. */
export const enterpriseEnv = (expireAt = new Date(Date.now() + 365 * DAY)): Record<string, string> => {
  const { publicKeyPem, privateKeyPem } = generateLicenseKeyPair();
  const license = signLicense({ id: crypto.randomUUID(), name: 'Test Licensee', expireAt }, privateKeyPem);
  return { LICENSE_KEY: license, LICENSE_PUBLIC_KEY: publicKeyPem };
};
