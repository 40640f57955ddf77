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

// A date-time without an offset would be read in the server's local time zone; only UTC or an offset is exact.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A licence's expiry as text: a valid instant, or null; also refuses days that do not exist
 * (2027-02-30), which Date rolls over. The one reading for the CLI that signs a licence and the
 * server that verifies it.
 */
export const parseIsoDate = (text: string): Date | null => {
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return null;
  const [, year, month, day] = match.map(Number);
  const calendar = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0));
  const exists = calendar.getUTCMonth() === (month ?? 0) - 1 && calendar.getUTCDate() === day;
  return exists ? date : null;
};
