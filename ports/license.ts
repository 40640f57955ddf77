import type { License } from '../core/domain/license.js';

export interface LicenseSource {
  /** The licence whose signature verified at start, or null. Expiry is the caller's business. */
  current(): License | null;
}
