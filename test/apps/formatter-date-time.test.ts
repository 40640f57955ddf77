import { afterAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
afterAll(() => catalog.close());

const run = (parameters: Record<string, unknown>) =>
  catalog.runAction({ appKey: 'formatter', key: 'date-time', parameters, connection: null, execution: null });

const output = async (parameters: Record<string, unknown>) => ((await run(parameters)) as { output: unknown }).output;

describe('formatter: date-time', () => {
  it('gives the current time in the format and zone asked for', async () => {
    const before = Date.now();
    const millis = await output({ transform: 'getCurrentTimestamp', toFormat: 'x' });
    const seconds = await output({ transform: 'getCurrentTimestamp', toFormat: 'X' });
    const iso = (await output({ transform: 'getCurrentTimestamp', toTimezone: 'Asia/Kolkata' })) as string;
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now());
    expect(seconds).toBe(Math.floor(seconds as number));
    expect(Math.abs((seconds as number) - before / 1000)).toBeLessThan(5);
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:30$/);
    expect(Math.abs(Date.parse(iso) - before)).toBeLessThan(5000);
  });

  it.each([
    // An input without offset is read in its zone, and written in the output zone.
    [['2023-08-23T12:25:36', 'iso', 'Europe/Paris', 'yyyy-MM-dd HH:mm:ss ZZZ', 'UTC'], '2023-08-23 10:25:36 +0000'],
    // An input with an offset keeps its instant, whatever the input zone.
    [['2023-08-23T12:25:36Z', 'iso', 'Asia/Tokyo', 'iso', 'America/New_York'], '2023-08-23T08:25:36.000-04:00'],
    [['1692793536', 'X', 'UTC', 'MMMM dd yyyy HH:mm:ss', 'UTC'], 'August 23 2023 12:25:36'],
    [['1692793536000', 'x', 'UTC', 'X', 'UTC'], 1692793536],
    [['23/08/2023', 'dd/MM/yyyy', 'UTC', 'x', 'UTC'], 1692748800000],
    [['Wed, 23 Aug 2023 12:25:36 +0200', 'rfc2822', 'UTC', 'iso', 'UTC'], '2023-08-23T10:25:36.000Z'],
    [
      ['2023-08-23', 'yyyy-MM-dd', 'UTC', 'ccc MMM dd HH:mm:ssZZZ yyyy', 'Europe/Berlin'],
      'Wed Aug 23 02:00:00+0200 2023',
    ],
    [
      ['2023-01-15 09:00:00', 'yyyy-MM-dd HH:mm:ss', 'America/Los_Angeles', 'rfc2822', 'UTC'],
      'Sun, 15 Jan 2023 17:00:00 +0000',
    ],
  ])('formats %j as %j', async ([input, fromFormat, fromTimezone, toFormat, toTimezone], expected) => {
    expect(await output({ transform: 'formatDateTime', input, fromFormat, fromTimezone, toFormat, toTimezone })).toBe(
      expected,
    );
  });

  it('adds and subtracts calendar time in the zone, keeping the time of day across a clock change', async () => {
    const shift = (transform: string, input: string, amount: number, unit: string) =>
      output({ transform, input, amount, unit, timezone: 'Europe/Paris', toFormat: 'yyyy-MM-dd HH:mm:ss ZZZ' });
    // Paris moved its clocks forward on 26 March 2023.
    expect(await shift('addTime', '2023-03-25T12:00:00', 1, 'days')).toBe('2023-03-26 12:00:00 +0200');
    expect(await shift('addTime', '2023-03-25T12:00:00', 24, 'hours')).toBe('2023-03-26 13:00:00 +0200');
    expect(await shift('addTime', '2023-01-31T08:00:00', 1, 'months')).toBe('2023-02-28 08:00:00 +0100');
    expect(await shift('subtractTime', '2023-03-26T12:00:00', 90, 'minutes')).toBe('2023-03-26 10:30:00 +0200');
    expect(await shift('addTime', '2023-03-26T12:00:00', -2, 'weeks')).toBe('2023-03-12 12:00:00 +0100');
  });

  it('measures the time between two dates, negative when the end comes first', async () => {
    const between = (startDate: string, endDate: string, unit: string) =>
      output({ transform: 'dateDifference', startDate, endDate, unit });
    expect(await between('2023-08-01T00:00:00Z', '2023-08-23T12:00:00Z', 'days')).toBe(22.5);
    expect(await between('2023-08-23T12:00:00Z', '2023-08-23T11:30:00Z', 'minutes')).toBe(-30);
  });

  it('says which input does not fit its format', async () => {
    await expect(run({ transform: 'formatDateTime', input: '31/02/2023', fromFormat: 'dd/MM/yyyy' })).rejects.toThrow(
      /^"31\/02\/2023" is not a date in the format dd\/MM\/yyyy/,
    );
    await expect(run({ transform: 'formatDateTime', input: 'soon', fromFormat: 'X' })).rejects.toThrow(
      '"soon" is not a date in the format X',
    );
  });

  it('refuses unknown time zones and formats', async () => {
    await expect(
      run({ transform: 'formatDateTime', input: '2023-08-23', toTimezone: 'Mars/Olympus', toFormat: 'YYYY' }),
    ).rejects.toMatchObject({
      fields: {
        toTimezone: ['is not a known time zone (e.g. UTC, Europe/Paris).'],
        toFormat: [expect.stringMatching(/^must be one of: iso, rfc2822, X, x, /)],
      },
    });
  });
});
