export interface License {
  readonly id: string;
  readonly name: string;
  readonly expireAt: Date;
}

/** What GET /service/license shows. */
export interface LicenseStatus {
  readonly id: string | null;
  readonly name: string | null;
  readonly expireAt: Date | null;
  readonly verified: boolean;
}

/** A verified licence counts only until it expires. */
export const licenseStatus = (license: License | null, now: Date): LicenseStatus =>
  license
    ? { id: license.id, name: license.name, expireAt: license.expireAt, verified: now < license.expireAt }
    : { id: null, name: null, expireAt: null, verified: false };
