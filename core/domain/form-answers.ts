import type { FieldErrors } from './errors.js';
import { FORM_LIMITS, type Form, type FormField } from './form.js';
import { err, ok, type Result } from './result.js';

/** One row of an array field: its sub-fields' answers by key. */
export type AnswerRow = Readonly<Record<string, string>>;
/**
 * A visitor's answers, keyed as Automatisch's form page sends them: each field's key with its text
 * (`""` when left empty), a checked checkbox as `"true"` (an unchecked one is absent), an array
 * field as its rows; then the page's query parameters that name no field.
 */
export type FormAnswers = Readonly<Record<string, string | readonly AnswerRow[]>>;
/** What a visitor sent, by input name (`<key>`, or `<key>.<row>.<subKey>` in an array field). */
export type SentValues = ReadonlyMap<string, string>;

export const ANSWER_LIMITS = {
  /** Characters of a one-line answer (and of a query parameter kept as an answer). */
  text: 1_000,
  multiline: 10_000,
  /** Query parameters kept beside the fields, and the length of their names. */
  extras: 20,
  extraName: 100,
} as const;

/** Whether the text holds what no form answers with: C0 controls other than tab and line breaks, and DEL. */
const hasControl = (text: string) => {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
};

/** HTML's own rule for `type=email`, so that the server takes what the browser lets through. */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const TEL = /^\+?[0-9\s\-()]+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ALPHANUMERIC = /^[a-zA-Z0-9]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,3})?)?$/;

const isWebAddress = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const isDate = (text: string) => {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

const isDateTime = (text: string) => {
  const [date, time, ...rest] = text.split('T');
  return rest.length === 0 && date !== undefined && time !== undefined && isDate(date) && TIME.test(time);
};

/**
 * The formats the server checks as the browser does. A `custom` pattern is the browser's alone: a
 * pattern written by a user and run here against anyone's text could backtrack for minutes.
 */
const FORMATS: Readonly<Record<string, { readonly fits: (text: string) => boolean; readonly message: string }>> = {
  email: { fits: (text) => EMAIL.test(text), message: 'must be an e-mail address.' },
  url: { fits: isWebAddress, message: 'must be a web address (http or https).' },
  tel: { fits: (text) => TEL.test(text), message: 'must be a phone number.' },
  number: { fits: (text) => NUMBER.test(text), message: 'must be a number.' },
  alphanumeric: { fits: (text) => ALPHANUMERIC.test(text), message: 'must hold only letters and digits.' },
};

const BY_TYPE: Readonly<Record<string, { readonly fits: (text: string) => boolean; readonly message: string }>> = {
  date: { fits: isDate, message: 'must be a date (YYYY-MM-DD).' },
  time: { fits: (text) => TIME.test(text), message: 'must be a time (HH:MM).' },
  datetime: { fits: isDateTime, message: 'must be a date and time (YYYY-MM-DDTHH:MM).' },
};

export const isChecked = (value: string | undefined) => value === 'true' || value === 'on';

/** What is wrong with a text answer, or null. */
const textProblem = (field: FormField, value: string): string | null => {
  const limit = field.type === 'multiline' ? ANSWER_LIMITS.multiline : ANSWER_LIMITS.text;
  if (value.length > limit) return `must be at most ${limit} characters.`;
  if (hasControl(value)) return 'must not contain control characters.';
  if (value.trim() === '') return field.required ? 'is required.' : null;
  if (field.type === 'dropdown') {
    return (field.options ?? []).some((option) => option.value === value) ? null : 'must be one of the choices.';
  }
  const rule =
    BY_TYPE[field.type] ?? (field.type === 'string' && field.validationFormat ? FORMATS[field.validationFormat] : null);
  if (!rule || rule.fits(value)) return null;
  return (field.type === 'string' && field.validationHelperText) || rule.message;
};

/** A field's answer, or what is wrong with it; an unchecked checkbox answers nothing. */
const answerOf = (
  field: FormField,
  value: string | undefined,
): { readonly answer?: string; readonly problem?: string } => {
  if (field.type === 'checkbox') {
    if (isChecked(value)) return { answer: 'true' };
    return field.required ? { problem: 'must be checked.' } : {};
  }
  const text = value ?? '';
  const problem = textProblem(field, text);
  return problem ? { problem } : { answer: text };
};

/** The rows an array field was sent, by row index, each as its sub-fields' values. */
const rowsSent = (field: FormField, sent: SentValues): Map<number, Map<string, string>> => {
  const rows = new Map<number, Map<string, string>>();
  const prefix = `${field.key}.`;
  for (const [name, value] of sent) {
    if (!name.startsWith(prefix)) continue;
    const [index, subKey, ...rest] = name.slice(prefix.length).split('.');
    if (rest.length || subKey === undefined || !/^\d{1,3}$/.test(index ?? '')) continue;
    const row = Number(index);
    if (row >= FORM_LIMITS.items) continue;
    rows.set(row, (rows.get(row) ?? new Map()).set(subKey, value));
  }
  return new Map([...rows].sort(([a], [b]) => a - b));
};

const readRows = (field: FormField, sent: SentValues, problems: Map<string, string[]>): AnswerRow[] => {
  const subfields = field.fields ?? [];
  const answered: AnswerRow[] = [];
  for (const [index, values] of rowsSent(field, sent)) {
    // The page offers spare rows: one left wholly empty is not an answer.
    const blank = subfields.every((sub) =>
      sub.type === 'checkbox' ? !isChecked(values.get(sub.key)) : (values.get(sub.key) ?? '').trim() === '',
    );
    if (blank) continue;
    const row = new Map<string, string>();
    for (const sub of subfields) {
      const { answer, problem } = answerOf(sub, values.get(sub.key));
      if (problem) problems.set(`${field.key}.${index}.${sub.key}`, [problem]);
      if (answer !== undefined) row.set(sub.key, answer);
    }
    answered.push(Object.fromEntries(row));
  }
  const min = field.minItems ?? (field.required ? 1 : 0);
  const max = Math.min(field.maxItems ?? FORM_LIMITS.items, FORM_LIMITS.items);
  if (answered.length < min) {
    problems.set(field.key, [
      answered.length === 0 && field.required ? 'is required.' : `needs at least ${min} row${min === 1 ? '' : 's'}.`,
    ]);
  } else if (answered.length > max) {
    problems.set(field.key, [`takes at most ${max} row${max === 1 ? '' : 's'}.`]);
  }
  return answered;
};

/** Whether a sent name belongs to a field (or a row of one) of the form. */
const namesField = (fields: readonly FormField[], name: string) =>
  fields.some((field) => name === field.key || (field.type === 'array' && name.startsWith(`${field.key}.`)));

/**
 * Reads a visitor's answers against the form: every field's value checked as its type and format
 * say (required ones given, a dropdown's among its choices, dates and times as HTML sends them),
 * then `extras` (the page's query parameters) added under the names no field has, as Automatisch's
 * page adds them, within bounds. The answers, or the problems keyed by input name.
 */
export const readAnswers = (
  form: Pick<Form, 'fields'>,
  sent: SentValues,
  extras: SentValues = new Map(),
): Result<FormAnswers, FieldErrors> => {
  const problems = new Map<string, string[]>();
  const answers = new Map<string, string | readonly AnswerRow[]>();
  for (const field of form.fields) {
    if (field.type === 'array') {
      answers.set(field.key, readRows(field, sent, problems));
      continue;
    }
    const { answer, problem } = answerOf(field, sent.get(field.key));
    if (problem) problems.set(field.key, [problem]);
    if (answer !== undefined) answers.set(field.key, answer);
  }
  if (problems.size) return err(Object.fromEntries(problems));
  let kept = 0;
  for (const [name, value] of extras) {
    if (kept >= ANSWER_LIMITS.extras) break;
    const fits =
      name !== '' &&
      name.length <= ANSWER_LIMITS.extraName &&
      value.length <= ANSWER_LIMITS.text &&
      !hasControl(name) &&
      !hasControl(value);
    if (!fits || answers.has(name) || namesField(form.fields, name)) continue;
    answers.set(name, value);
    kept += 1;
  }
  // fromEntries defines each key as the object's own: a field named `__proto__` stays an answer.
  return ok(Object.fromEntries(answers));
};
