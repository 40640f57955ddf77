import { DateTime } from 'luxon';
import { dropdown, text } from '../sdk/index.js';

/** Output is written in English whatever the server's locale, so that a flow gives the same text everywhere. */
const LOCALE = 'en-US';

/** Luxon tokens, plus ISO 8601, RFC 2822 and Unix time. */
const FORMATS = [
  ['iso', 'ISO 8601 (2023-08-23T12:25:36.000+00:00)'],
  ['rfc2822', 'RFC 2822 (Wed, 23 Aug 2023 12:25:36 +0000)'],
  ['X', 'Unix time in seconds (1692793536)'],
  ['x', 'Unix time in milliseconds (1692793536000)'],
  ['ccc MMM dd HH:mm:ssZZZ yyyy', 'ccc MMM dd HH:mm:ssZZZ yyyy (Wed Aug 23 12:25:36+0000 2023)'],
  ['MMMM dd yyyy HH:mm:ss', 'MMMM dd yyyy HH:mm:ss (August 23 2023 12:25:36)'],
  ['MMMM dd yyyy', 'MMMM dd yyyy (August 23 2023)'],
  ['MMM dd yyyy', 'MMM dd yyyy (Aug 23 2023)'],
  ['yyyy-MM-dd HH:mm:ss ZZZ', 'yyyy-MM-dd HH:mm:ss ZZZ (2023-08-23 12:25:36 +0000)'],
  ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm:ss (2023-08-23 12:25:36)'],
  ['yyyy-MM-dd', 'yyyy-MM-dd (2023-08-23)'],
  ['MM-dd-yyyy', 'MM-dd-yyyy (08-23-2023)'],
  ['MM/dd/yyyy', 'MM/dd/yyyy (08/23/2023)'],
  ['MM/dd/yy', 'MM/dd/yy (08/23/23)'],
  ['dd-MM-yyyy', 'dd-MM-yyyy (23-08-2023)'],
  ['dd/MM/yyyy', 'dd/MM/yyyy (23/08/2023)'],
  ['dd.MM.yyyy', 'dd.MM.yyyy (23.08.2023)'],
  ['dd/MM/yy', 'dd/MM/yy (23/08/23)'],
  ['MM-yyyy', 'MM-yyyy (08-2023)'],
  ['HH:mm', 'HH:mm (12:25)'],
] as const;

export type DateFormat = (typeof FORMATS)[number][0];

const formatOptions = FORMATS.map(([value, label]) => ({ label, value }));

export const formatArgument = (label: string, description: string) =>
  dropdown({ label, default: 'iso', description, options: formatOptions });

/** Intl knows the IANA zones the runtime supports; an unknown one makes it throw. */
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat(LOCALE, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const timeZoneArgument = (label: string, description: string) =>
  text({
    label,
    default: 'UTC',
    acceptsVariables: true,
    placeholder: 'Europe/Paris',
    description,
    check: (zone) => (isTimeZone(zone) ? null : 'is not a known time zone (e.g. UTC, Europe/Paris).'),
  });

const unixTime = (input: string, scale: number, zone: string) => {
  const n = Number(input.trim());
  return input.trim() === '' || !Number.isFinite(n)
    ? DateTime.invalid('not a number')
    : DateTime.fromMillis(n * scale, { zone });
};

/**
 * Reads a date in the given format. A time without an offset is read in `zone`; one with an
 * offset (ISO, RFC 2822, `ZZZ`) keeps its instant and is then shown in `zone`.
 */
export const parseDate = (input: string, format: DateFormat, zone: string): DateTime => {
  const options = { zone, locale: LOCALE, setZone: false };
  const parsed =
    format === 'iso'
      ? DateTime.fromISO(input.trim(), options)
      : format === 'rfc2822'
        ? DateTime.fromRFC2822(input.trim(), options)
        : format === 'X'
          ? unixTime(input, 1000, zone)
          : format === 'x'
            ? unixTime(input, 1, zone)
            : DateTime.fromFormat(input.trim(), format, options);
  if (!parsed.isValid) {
    throw new Error(
      `"${input}" is not a date in the format ${format}${parsed.invalidExplanation ? `: ${parsed.invalidExplanation}` : '.'}`,
    );
  }
  return parsed.setZone(zone);
};

/** Unix times are numbers, so that later steps can calculate with them; the rest is text. */
export const formatDate = (date: DateTime, format: DateFormat, zone: string): string | number => {
  const zoned = date.setZone(zone).setLocale(LOCALE);
  switch (format) {
    case 'iso':
      return zoned.toISO() ?? '';
    case 'rfc2822':
      return zoned.toRFC2822() ?? '';
    case 'X':
      return Math.floor(zoned.toSeconds());
    case 'x':
      return zoned.toMillis();
    default:
      return zoned.toFormat(format);
  }
};
