import { afterAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
afterAll(() => catalog.close());

type Step = 'text' | 'numbers' | 'date-time';

const run = async (key: Step, parameters: Record<string, unknown>) =>
  catalog.runAction({ appKey: 'formatter', key, parameters, connection: null, execution: null });

const output = async (key: Step, parameters: Record<string, unknown>) =>
  ((await run(key, parameters)) as { output: unknown }).output;

const transformsOf = (key: Step) =>
  (catalog.find('formatter')?.actions.find((a) => a.key === key)?.arguments[0]?.options ?? []).map((o) => o.value);

describe('formatter: the transforms and their fields', () => {
  it('offers the transforms of API.md §11', () => {
    expect(transformsOf('text')).toEqual([
      'lowercase',
      'uppercase',
      'capitalize',
      'trimWhitespace',
      'replace',
      'extractEmailAddress',
      'extractNumber',
      'stringToBase64',
      'base64ToString',
      'encodeUriComponent',
      'htmlToMarkdown',
      'markdownToHtml',
      'useDefaultValue',
      'parseStringifiedJson',
      'createUuid',
      'pluralize',
    ]);
    expect(transformsOf('numbers')).toEqual(
      expect.arrayContaining(['performMathOperation', 'randomNumber', 'formatNumber']),
    );
    expect(transformsOf('date-time')).toEqual(
      expect.arrayContaining(['getCurrentTimestamp', 'formatDateTime', 'addTime']),
    );
  });

  it('shows only the fields of the chosen transform', async () => {
    const fields = (key: Step, transform: unknown) =>
      catalog
        .dynamicFields({
          appKey: 'formatter',
          key: `${key === 'date-time' ? 'dateTime' : key}Fields`,
          parameters: { transform },
          connection: null,
        })
        .then((list) => list.map((f) => f.key));
    expect(await fields('text', 'lowercase')).toEqual([]);
    expect(await fields('text', 'replace')).toEqual(['find', 'replace']);
    expect(await fields('text', 'useDefaultValue')).toEqual(['defaultValue']);
    expect(await fields('numbers', 'randomNumber')).toEqual(['lowerRange', 'upperRange', 'decimalPoints']);
    expect(await fields('date-time', 'formatDateTime')).toEqual([
      'input',
      'fromFormat',
      'fromTimezone',
      'toFormat',
      'toTimezone',
    ]);
    expect(await fields('text', 'toString')).toEqual([]);
    expect(await fields('text', undefined)).toEqual([]);
  });

  it('validates the chosen transform’s fields', async () => {
    await expect(run('text', { transform: 'replace', input: 'x' })).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { find: ['is required.'] },
    });
    await expect(
      run('numbers', { transform: 'randomNumber', lowerRange: 'one', upperRange: 3, decimalPoints: 20 }),
    ).rejects.toMatchObject({
      fields: { lowerRange: ['must be a number.'], decimalPoints: ['must be at most 15.'] },
    });
    await expect(run('text', { transform: 'shout', input: 'x' })).rejects.toMatchObject({
      fields: { transform: [expect.stringMatching(/^must be one of: lowercase, /)] },
    });
  });
});

describe('formatter: text', () => {
  it.each([
    ['lowercase', { input: 'Hello WORLD' }, 'hello world'],
    ['uppercase', { input: 'Straße' }, 'STRASSE'],
    ['capitalize', { input: "hello wORLD, it's élise" }, "Hello World, It's Élise"],
    ['trimWhitespace', { input: '  \n padded \t ' }, 'padded'],
    ['replace', { input: 'a-b-c', find: '-', replace: '+' }, 'a+b+c'],
    ['replace', { input: 'a.b.c', find: '.' }, 'abc'],
    ['extractEmailAddress', { input: 'Write to <Ada.L+news@example.co.uk> today' }, 'Ada.L+news@example.co.uk'],
    ['extractEmailAddress', { input: 'nobody here' }, null],
    ['extractNumber', { input: 'Total: 1,234.50 EUR' }, 1234.5],
    ['extractNumber', { input: 'it is -3.5 degrees' }, -3.5],
    ['extractNumber', { input: 'none' }, null],
    ['stringToBase64', { input: 'héllo' }, 'aMOpbGxv'],
    ['base64ToString', { input: 'aMOpbGxv' }, 'héllo'],
    ['encodeUriComponent', { input: 'a b&c/é' }, 'a%20b%26c%2F%C3%A9'],
    [
      'htmlToMarkdown',
      {
        input: '<h1>Title</h1><p>Some <strong>bold</strong> <a href="https://x.test">link</a></p><ul><li>one</li></ul>',
      },
      '# Title\n\nSome **bold** [link](https://x.test)\n\n-   one',
    ],
    ['markdownToHtml', { input: '# Title\n\nSome **bold**' }, '<h1>Title</h1>\n<p>Some <strong>bold</strong></p>\n'],
    ['useDefaultValue', { input: '', defaultValue: 'n/a' }, 'n/a'],
    ['useDefaultValue', { defaultValue: 'n/a' }, 'n/a'],
    ['useDefaultValue', { input: 'given', defaultValue: 'n/a' }, 'given'],
    ['parseStringifiedJson', { input: '{"a":[1,{"b":null}]}' }, { a: [1, { b: null }] }],
    ['pluralize', { input: 'person' }, 'people'],
    ['pluralize', { input: 'invoice' }, 'invoices'],
    ['lowercase', {}, ''],
  ])('%s %j', async (transform, fields, expected) => {
    expect(await output('text', { transform, ...fields })).toEqual(expected);
  });

  it('creates a new UUID v4 each time', async () => {
    const first = await output('text', { transform: 'createUuid' });
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await output('text', { transform: 'createUuid' })).not.toBe(first);
  });

  it('says why JSON text does not parse', async () => {
    await expect(run('text', { transform: 'parseStringifiedJson', input: '{oops' })).rejects.toThrow(
      /^The input is not valid JSON: /,
    );
  });
});

describe('formatter: numbers', () => {
  it.each([
    [{ transform: 'performMathOperation', mathOperation: 'add', values: [1, '2.5', ' 3 '] }, 6.5],
    [{ transform: 'performMathOperation', mathOperation: 'subtract', values: '[10, 3, 2]' }, 5],
    [{ transform: 'performMathOperation', mathOperation: 'multiply', values: [2, 3, 4] }, 24],
    [{ transform: 'performMathOperation', mathOperation: 'divide', values: [10, 4] }, 2.5],
    [{ transform: 'performMathOperation', mathOperation: 'makeNegative', values: [7] }, -7],
    [{ transform: 'roundNumber', input: '1.005', decimalPoints: 2 }, 1.01],
    [{ transform: 'roundNumber', input: 2.5 }, 3],
    [{ transform: 'roundNumber', input: 2.71, decimalPoints: 1, mode: 'floor' }, 2.7],
    [{ transform: 'roundNumber', input: 2.71, decimalPoints: 1, mode: 'ceil' }, 2.8],
    [{ transform: 'formatNumber', input: '1234567.891' }, '1,234,567.891'],
    [{ transform: 'formatNumber', input: '1,234,567.5', toFormat: '1' }, '1.234.567,5'],
    [{ transform: 'formatNumber', input: '-1.234.567,5', inputDecimalMark: ',', toFormat: '2' }, '-1 234 567.5'],
    [{ transform: 'formatNumber', input: '999', toFormat: '3' }, '999'],
    [{ transform: 'formatCurrency', input: 1234.5 }, '$1,234.50'],
    [{ transform: 'formatCurrency', input: '1234.5', currency: 'EUR', locale: 'de-DE' }, '1.234,50\u00a0€'],
  ])('%j', async (parameters, expected) => {
    expect(await output('numbers', parameters)).toEqual(expected);
  });

  it('draws random numbers within the range, whole or with decimals', async () => {
    for (let i = 0; i < 30; i++) {
      const whole = await output('numbers', { transform: 'randomNumber', lowerRange: 1, upperRange: 3 });
      expect([1, 2, 3]).toContain(whole);
      const decimal = (await output('numbers', {
        transform: 'randomNumber',
        lowerRange: '0.5',
        upperRange: '0.6',
        decimalPoints: 3,
      })) as number;
      expect(decimal).toBeGreaterThanOrEqual(0.5);
      expect(decimal).toBeLessThanOrEqual(0.6);
      expect(Math.round(decimal * 1000) / 1000).toBe(decimal);
    }
  });

  it.each([
    [{ transform: 'performMathOperation', mathOperation: 'divide', values: [1, 0] }, 'Cannot divide by zero.'],
    [{ transform: 'randomNumber', lowerRange: 5, upperRange: 1 }, 'The lowest number is above the highest.'],
    [{ transform: 'formatNumber', input: 'twelve' }, '"twelve" is not a number written with "." as decimal mark.'],
  ])('fails clearly for %j', async (parameters, message) => {
    await expect(run('numbers', parameters)).rejects.toThrow(message);
  });

  it.each([
    [
      { transform: 'performMathOperation', mathOperation: 'add', values: [1, 'x'] },
      'values',
      'must be a list of numbers, e.g. [1, 2.5, "3"].',
    ],
    [{ transform: 'performMathOperation', mathOperation: 'add', values: [] }, 'values', 'needs at least one number.'],
    [{ transform: 'formatCurrency', input: 1, currency: 'EURO' }, 'currency', 'is not a currency code.'],
  ])('refuses %j', async (parameters, field, message) => {
    await expect(run('numbers', parameters)).rejects.toMatchObject({ fields: { [field]: [message] } });
  });
});
