import * as v from 'valibot';
import { dropdown, json, number, text } from '../sdk/index.js';
import { defineTransform, transformAction } from './transform.js';

const options = <const T extends string>(entries: readonly (readonly [T, string])[]) =>
  entries.map(([value, label]) => ({ label, value }));

const NUMBERS = 'must be a list of numbers, e.g. [1, 2.5, "3"].';

/** Variables render numbers as text, so numeric text counts as a number. */
const numberList = v.pipe(
  v.array(
    v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty())], NUMBERS),
      v.transform(Number),
      v.check((n: number) => Number.isFinite(n), NUMBERS),
    ),
    NUMBERS,
  ),
  v.minLength(1, 'needs at least one number.'),
);

const decimalPoints = number({
  label: 'Decimal places',
  default: 0,
  integer: true,
  min: 0,
  max: 15,
  acceptsVariables: true,
});

const MATH = {
  add: (values: readonly number[]) => values.reduce((sum, n) => sum + n, 0),
  subtract: ([first = 0, ...rest]: readonly number[]) => rest.reduce((total, n) => total - n, first),
  multiply: (values: readonly number[]) => values.reduce((product, n) => product * n, 1),
  divide: ([first = 0, ...rest]: readonly number[]) =>
    rest.reduce((total, n) => {
      if (n === 0) throw new Error('Cannot divide by zero.');
      return total / n;
    }, first),
  makeNegative: ([first = 0]: readonly number[]) => -first,
} as const;

/** Rounds in decimal, so that 1.005 to two places is 1.01 as written, not 1.00 as stored. */
const round = (value: number, places: number, mode: 'round' | 'floor' | 'ceil') =>
  Number(`${Math[mode](Number(`${value}e${places}`))}e-${places}`);

const SEPARATORS = {
  '0': { group: ',', decimal: '.' },
  '1': { group: '.', decimal: ',' },
  '2': { group: ' ', decimal: '.' },
  '3': { group: ' ', decimal: ',' },
} as const;

/** Reads `1.234,5` or `1,234.5` by its decimal mark and writes it with other separators. */
const reformat = (input: string, decimalMark: '.' | ',', to: keyof typeof SEPARATORS): string => {
  const kept = input.replace(decimalMark === '.' ? /[^\d.-]/g : /[^\d,-]/g, '');
  const [whole = '', fraction] = kept.split(decimalMark);
  const digits = whole.replace(/-/g, '');
  if (!/^\d+$/.test(digits) || (fraction !== undefined && !/^\d*$/.test(fraction))) {
    throw new Error(`"${input}" is not a number written with "${decimalMark}" as decimal mark.`);
  }
  const { group, decimal } = SEPARATORS[to];
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${whole.startsWith('-') ? '-' : ''}${grouped}${fraction ? `${decimal}${fraction}` : ''}`;
};

const intlOption = (build: (value: string) => unknown, message: string) => (value: string) => {
  try {
    build(value);
    return null;
  } catch {
    return message;
  }
};

export const { action: numbersAction, fields: numbersFields } = transformAction({
  key: 'numbers',
  name: 'Numbers',
  description: 'Calculates with numbers, draws random ones, rounds and formats them.',
  dynamicFieldsKey: 'numbersFields',
  arguments: {},
  transforms: {
    performMathOperation: defineTransform({
      label: 'Perform a math operation',
      fields: {
        mathOperation: dropdown({
          label: 'Operation',
          required: true,
          options: options([
            ['add', 'Add'],
            ['subtract', 'Subtract (from the first)'],
            ['multiply', 'Multiply'],
            ['divide', 'Divide (the first by the others)'],
            ['makeNegative', 'Make the first negative'],
          ]),
        }),
        values: json({
          label: 'Values',
          required: true,
          acceptsVariables: true,
          placeholder: '[1, 2]',
          schema: numberList,
        }),
      },
      run: (fields) => MATH[fields.mathOperation](fields.values),
    }),
    randomNumber: defineTransform({
      label: 'Random number',
      fields: {
        lowerRange: number({ label: 'Lowest', required: true, acceptsVariables: true }),
        upperRange: number({ label: 'Highest', required: true, acceptsVariables: true }),
        decimalPoints,
      },
      run: ({ lowerRange, upperRange, decimalPoints: places }) => {
        if (lowerRange > upperRange) throw new Error('The lowest number is above the highest.');
        if (places > 0) {
          return Math.min(upperRange, round(lowerRange + Math.random() * (upperRange - lowerRange), places, 'round'));
        }
        const low = Math.ceil(lowerRange);
        const high = Math.floor(upperRange);
        if (low > high) throw new Error('There is no whole number in that range.');
        return low + Math.floor(Math.random() * (high - low + 1));
      },
    }),
    roundNumber: defineTransform({
      label: 'Round a number',
      fields: {
        input: number({ label: 'Number', required: true, acceptsVariables: true }),
        decimalPoints,
        mode: dropdown({
          label: 'Direction',
          default: 'round',
          options: options([
            ['round', 'Nearest'],
            ['floor', 'Down'],
            ['ceil', 'Up'],
          ]),
        }),
      },
      run: (fields) => round(fields.input, fields.decimalPoints, fields.mode),
    }),
    formatNumber: defineTransform({
      label: 'Format a number',
      fields: {
        input: text({ label: 'Number', required: true, acceptsVariables: true, placeholder: '1234567.89' }),
        inputDecimalMark: dropdown({
          label: 'Decimal mark of the input',
          default: '.',
          options: options([
            ['.', 'Period'],
            [',', 'Comma'],
          ]),
        }),
        toFormat: dropdown({
          label: 'Output format',
          default: '0',
          options: options([
            ['0', 'Comma for grouping, period for decimals (1,234.5)'],
            ['1', 'Period for grouping, comma for decimals (1.234,5)'],
            ['2', 'Space for grouping, period for decimals (1 234.5)'],
            ['3', 'Space for grouping, comma for decimals (1 234,5)'],
          ]),
        }),
      },
      run: (fields) => reformat(fields.input, fields.inputDecimalMark, fields.toFormat),
    }),
    formatCurrency: defineTransform({
      label: 'Format as currency',
      fields: {
        input: number({ label: 'Amount', required: true, acceptsVariables: true }),
        currency: text({
          label: 'Currency',
          default: 'USD',
          description: 'An ISO 4217 code: USD, EUR, JPY...',
          check: intlOption(
            (c) => new Intl.NumberFormat('en', { style: 'currency', currency: c }),
            'is not a currency code.',
          ),
        }),
        locale: text({
          label: 'Locale',
          default: 'en-US',
          description: 'How the amount is written: en-US, de-DE, fr-FR...',
          check: intlOption((l) => new Intl.NumberFormat(l), 'is not a locale.'),
        }),
      },
      run: (fields) =>
        new Intl.NumberFormat(fields.locale, { style: 'currency', currency: fields.currency }).format(fields.input),
    }),
  },
});
