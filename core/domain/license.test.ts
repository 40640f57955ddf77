import { describe, expect, it } from 'vitest';
import { type License, licenseStatus, parseIsoDate } from './license.js';

const expireAt = new Date('2027-01-01T00:00:00.000Z');
const license: License = { id: '2b0c6f2e-5d7a-4c1e-9f3b-8a6d4e2c1b0a', name: 'Acme Corp', expireAt };
const at = (iso: string) => new Date(iso);

describe('licenseStatus', () => {
  it('is all nulls and unverified without a licence', () => {
    expect(licenseStatus(null, at('2026-06-01T00:00:00.000Z'))).toEqual({
      id: null,
      name: null,
      expireAt: null,
      verified: false,
    });
  });

  it('shows a licence before its expiry as verified', () => {
    expect(licenseStatus(license, at('2026-06-01T00:00:00.000Z'))).toEqual({
      id: license.id,
      name: 'Acme Corp',
      expireAt,
      verified: true,
    });
  });

  it('still counts one millisecond before the expiry', () => {
    expect(licenseStatus(license, at('2026-12-31T23:59:59.999Z')).verified).toBe(true);
  });

  it('stops counting at the exact moment of expiry', () => {
    expect(licenseStatus(license, at('2027-01-01T00:00:00.000Z')).verified).toBe(false);
  });

  it('still shows an expired licence, unverified', () => {
    expect(licenseStatus(license, at('2030-01-01T00:00:00.000Z'))).toEqual({
      id: license.id,
      name: 'Acme Corp',
      expireAt,
      verified: false,
    });
  });

  it('compares instants, not the clock time zone', () => {
    // 01:00 at +02:00 is 23:00 UTC the day before: still before the expiry.
    expect(licenseStatus(license, at('2027-01-01T01:00:00.000+02:00')).verified).toBe(true);
    expect(licenseStatus(license, at('2027-01-01T01:00:00.000+01:00')).verified).toBe(false);
  });
});

describe('parseIsoDate', () => {
  it.each([
    ['2031-05-17', '2031-05-17T00:00:00.000Z'],
    ['2031-05-17T12:00Z', '2031-05-17T12:00:00.000Z'],
    ['2031-05-17T12:00:30.5Z', '2031-05-17T12:00:30.500Z'],
    ['2031-05-17T12:00:00+02:00', '2031-05-17T10:00:00.000Z'],
    ['2032-02-29', '2032-02-29T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseIsoDate(text)?.toISOString()).toBe(iso);
  });

  it.each(['2031-02-29', '2031-04-31', '2031-13-01', '2031-00-10', '2031-05-17T12:00', '17/05/2031', 'tomorrow', ''])(
    'refuses %s',
    (text) => {
      expect(parseIsoDate(text)).toBeNull();
    },
  );
});
