import { ensureDebianPackage, type PackageAvailability } from './debian-package.js';

/** Debian's Chromium: the browser the end-to-end suites drive through playwright-core. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export type ChromiumAvailability = PackageAvailability;

/**
 * Chromium at /usr/bin/chromium, installed with apt when it is missing (logged line by line).
 * `missing` says why it is not there when apt could not install it.
 */
export const ensureChromium = (): ChromiumAvailability => ensureDebianPackage('chromium', CHROMIUM_PATH);
