import { describe, expect, it } from 'vitest';
import type { FormField } from './form.js';
import { ANSWER_LIMITS, readAnswers } from './form-answers.js';

const sent = (values: Record<string, string>) => new Map(Object.entries(values));
const form = (...fields: FormField[]) => ({ fields });

describe('readAnswers', () => {
  it('answers every field by its key, as Automatisch’s page sends them', () => {
    const contact = form(
      { name: 'Name', key: 'name', type: 'string', required: true },
      { name: 'Email', key: 'email', type: 'string', validationFormat: 'email' },
      { name: 'Notes', key: 'notes', type: 'multiline' },
      { name: 'News', key: 'news', type: 'checkbox' },
      { name: 'Terms', key: 'terms', type: 'checkbox' },
      { name: 'Plan', key: 'plan', type: 'dropdown', options: [{ value: 'Free' }, { value: 'Pro' }] },
      { name: 'Day', key: 'day', type: 'date' },
      { name: 'At', key: 'at', type: 'time' },
      { name: 'When', key: 'when', type: 'datetime' },
    );
    const answers = readAnswers(
      contact,
      sent({
        name: 'Ada',
        email: 'ada@example.com',
        notes: 'line one\r\nline two',
        news: 'true',
        plan: 'Pro',
        day: '2026-02-28',
        at: '09:30',
        when: '2026-02-28T09:30',
      }),
    );
    expect(answers).toEqual({
      ok: true,
      value: {
        name: 'Ada',
        email: 'ada@example.com',
        notes: 'line one\r\nline two',
        news: 'true',
        plan: 'Pro',
        day: '2026-02-28',
        at: '09:30',
        when: '2026-02-28T09:30',
      },
    });
  });

  it('gives a field left empty as empty text, and leaves an unchecked box out', () => {
    const answers = readAnswers(
      form({ name: 'Name', key: 'name', type: 'string' }, { name: 'News', key: 'news', type: 'checkbox' }),
      sent({}),
    );
    expect(answers).toEqual({ ok: true, value: { name: '' } });
  });

  it('names each answer at fault, with what is wrong', () => {
    const checked = form(
      { name: 'Name', key: 'name', type: 'string', required: true },
      { name: 'Terms', key: 'terms', type: 'checkbox', required: true },
      { name: 'Email', key: 'email', type: 'string', validationFormat: 'email' },
      { name: 'Site', key: 'site', type: 'string', validationFormat: 'url' },
      { name: 'Phone', key: 'phone', type: 'string', validationFormat: 'tel' },
      { name: 'Age', key: 'age', type: 'string', validationFormat: 'number' },
      { name: 'User', key: 'user', type: 'string', validationFormat: 'alphanumeric', validationHelperText: 'Letters.' },
      { name: 'Plan', key: 'plan', type: 'dropdown', options: [{ value: 'Free' }] },
      { name: 'Day', key: 'day', type: 'date' },
      { name: 'At', key: 'at', type: 'time' },
      { name: 'When', key: 'when', type: 'datetime' },
      { name: 'Short', key: 'short', type: 'string' },
      { name: 'Bell', key: 'bell', type: 'multiline' },
    );
    const answers = readAnswers(
      checked,
      sent({
        name: '   ',
        email: 'not an address',
        site: 'javascript:alert(1)',
        phone: 'call me',
        age: '12 years',
        user: 'ada lovelace',
        plan: 'Enterprise',
        day: '2026-02-30',
        at: '25:00',
        when: '2026-02-28 09:30',
        short: 'x'.repeat(ANSWER_LIMITS.text + 1),
        bell: 'a\u0007b',
      }),
    );
    expect(answers).toEqual({
      ok: false,
      error: {
        name: ['is required.'],
        terms: ['must be checked.'],
        email: ['must be an e-mail address.'],
        site: ['must be a web address (http or https).'],
        phone: ['must be a phone number.'],
        age: ['must be a number.'],
        user: ['Letters.'],
        plan: ['must be one of the choices.'],
        day: ['must be a date (YYYY-MM-DD).'],
        at: ['must be a time (HH:MM).'],
        when: ['must be a date and time (YYYY-MM-DDTHH:MM).'],
        short: [`must be at most ${ANSWER_LIMITS.text} characters.`],
        bell: ['must not contain control characters.'],
      },
    });
  });

  it('leaves a custom pattern to the browser: a user’s pattern never runs on the server', () => {
    const coded = form({
      name: 'Code',
      key: 'code',
      type: 'string',
      validationFormat: 'custom',
      validationPattern: '^(a+)+$',
    });
    expect(readAnswers(coded, sent({ code: `${'a'.repeat(40)}!` }))).toEqual({
      ok: true,
      value: { code: `${'a'.repeat(40)}!` },
    });
  });

  it('reads an array field’s rows, skipping blank ones, and bounds how many it takes', () => {
    const guests = form({
      name: 'Guests',
      key: 'guests',
      type: 'array',
      minItems: 1,
      maxItems: 2,
      fields: [
        { name: 'Name', key: 'name', type: 'string', required: true },
        { name: 'Vegan', key: 'vegan', type: 'checkbox' },
      ],
    });
    expect(
      readAnswers(
        guests,
        sent({ 'guests.0.name': 'Ada', 'guests.1.name': '', 'guests.2.name': 'Bob', 'guests.2.vegan': 'true' }),
      ),
    ).toEqual({ ok: true, value: { guests: [{ name: 'Ada' }, { name: 'Bob', vegan: 'true' }] } });
    expect(readAnswers(guests, sent({ 'guests.0.name': '' }))).toEqual({
      ok: false,
      error: { guests: ['needs at least 1 row.'] },
    });
    expect(readAnswers(guests, sent({ 'guests.0.vegan': 'true' }))).toEqual({
      ok: false,
      error: { 'guests.0.name': ['is required.'] },
    });
    expect(readAnswers(guests, sent({ 'guests.0.name': 'A', 'guests.1.name': 'B', 'guests.4.name': 'C' }))).toEqual({
      ok: false,
      error: { guests: ['takes at most 2 rows.'] },
    });
  });

  it('keeps the page’s query parameters that name no field, within bounds, as Automatisch’s page does', () => {
    const simple = form(
      { name: 'Name', key: 'name', type: 'string' },
      { name: 'Rows', key: 'rows', type: 'array', fields: [{ name: 'X', key: 'x', type: 'string' }] },
    );
    const extras = sent({
      ref: 'newsletter',
      name: 'from the query',
      'rows.0.x': 'prefill',
      long: 'x'.repeat(ANSWER_LIMITS.text + 1),
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, String(i)])),
    });
    const answers = readAnswers(simple, sent({ name: 'Ada' }), extras);
    expect(answers.ok).toBe(true);
    const value = answers.ok ? answers.value : {};
    expect(value).toMatchObject({ name: 'Ada', rows: [], ref: 'newsletter', p0: '0' });
    expect(value).not.toHaveProperty('long');
    expect(value).not.toHaveProperty('rows.0.x');
    expect(Object.keys(value)).toHaveLength(2 + ANSWER_LIMITS.extras);
  });

  it('keeps a field named __proto__ as an answer of its own', () => {
    const answers = readAnswers(form({ name: 'Odd', key: '__proto__', type: 'string' }), new Map([['__proto__', 'x']]));
    expect(answers.ok && Object.hasOwn(answers.value, '__proto__')).toBe(true);
    expect(answers.ok && JSON.stringify(answers.value)).toBe('{"__proto__":"x"}');
  });
});
