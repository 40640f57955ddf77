import { DateTime, type DurationLikeObject } from 'luxon';
import { dropdown, number, text } from '../sdk/index.js';
import { formatArgument, formatDate, parseDate, timeZoneArgument } from './date-formats.js';
import { defineTransform, transformAction } from './transform.js';

const UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;

const unit = dropdown({
  label: 'Unit',
  default: 'days',
  options: UNITS.map((u) => ({ label: u[0]?.toUpperCase() + u.slice(1), value: u })),
});

const dateInput = (label: string) =>
  text({ label, required: true, acceptsVariables: true, placeholder: '2023-08-23T12:25:36Z' });
const fromFormat = formatArgument('Input format', 'How the input is written.');
const toFormat = formatArgument('Output format', 'How the output is written.');
const timezone = timeZoneArgument(
  'Time zone',
  'Where the input is read when it has no offset, where days and months are counted, and where the output is written.',
);

/** Calendar units are counted in the time zone, so that adding a day across a clock change keeps the time of day. */
const shift = (sign: 1 | -1) =>
  defineTransform({
    label: sign === 1 ? 'Add time' : 'Subtract time',
    fields: {
      input: dateInput('Date'),
      fromFormat,
      amount: number({ label: 'Amount', required: true, acceptsVariables: true }),
      unit,
      timezone,
      toFormat,
    },
    run: (f) => {
      const duration: DurationLikeObject = { [f.unit]: sign * f.amount };
      return formatDate(parseDate(f.input, f.fromFormat, f.timezone).plus(duration), f.toFormat, f.timezone);
    },
  });

export const { action: dateTimeAction, fields: dateTimeFields } = transformAction({
  key: 'date-time',
  name: 'Date / Time',
  description: 'Reads, converts, shifts and compares dates and times, in any time zone.',
  dynamicFieldsKey: 'dateTimeFields',
  arguments: {},
  transforms: {
    getCurrentTimestamp: defineTransform({
      label: 'Current date and time',
      fields: {
        toFormat: formatArgument('Output format', 'How the current time is written.'),
        toTimezone: timeZoneArgument('Time zone', 'The time zone the time is written in.'),
      },
      run: (f) => formatDate(DateTime.now(), f.toFormat, f.toTimezone),
    }),
    formatDateTime: defineTransform({
      label: 'Format a date and time',
      fields: {
        input: dateInput('Date'),
        fromFormat,
        fromTimezone: timeZoneArgument('Input time zone', 'Where the input is read when it has no offset.'),
        toFormat,
        toTimezone: timeZoneArgument('Output time zone', 'The time zone the output is written in.'),
      },
      run: (f) => formatDate(parseDate(f.input, f.fromFormat, f.fromTimezone), f.toFormat, f.toTimezone),
    }),
    addTime: shift(1),
    subtractTime: shift(-1),
    dateDifference: defineTransform({
      label: 'Time between two dates',
      fields: {
        startDate: dateInput('Start date'),
        endDate: dateInput('End date'),
        fromFormat,
        unit,
        timezone,
      },
      // Negative when the end comes first; fractional, so that callers choose how to round.
      run: (f) => {
        const start = parseDate(f.startDate, f.fromFormat, f.timezone);
        const end = parseDate(f.endDate, f.fromFormat, f.timezone);
        return end.diff(start, f.unit).as(f.unit);
      },
    }),
  },
});
