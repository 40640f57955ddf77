import type { FieldErrors } from './errors.js';

/**
 * A form a user built: the fields a visitor fills in on its public page (`/forms/:formId`) or on a
 * waiting run's page. Automatisch's model, key for key: a field is `{ name, key, type, ... }`, an
 * `array` field holds sub-fields, and each row of it answers one object.
 */
export const FORM_FIELD_TYPES = [
  'array',
  'checkbox',
  'date',
  'datetime',
  'dropdown',
  'multiline',
  'string',
  'time',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];
/** What an array field's rows may hold: any type but another array. */
export const SUBFIELD_TYPES = FORM_FIELD_TYPES.filter((type) => type !== 'array');
export type SubfieldType = Exclude<FormFieldType, 'array'>;

export const VALIDATION_FORMATS = ['alphanumeric', 'custom', 'email', 'number', 'tel', 'url'] as const;
export type ValidationFormat = (typeof VALIDATION_FORMATS)[number];

export interface FormFieldOption {
  readonly value: string;
}

export interface FormSubfield {
  /** The label the visitor reads. */
  readonly name: string;
  /** The answer's key, and the input's name. */
  readonly key: string;
  readonly type: SubfieldType;
  /** A dropdown's choices. */
  readonly options?: readonly FormFieldOption[];
  readonly required?: boolean;
  /** Shown, not edited: its value comes from the page's query string. */
  readonly readonly?: boolean;
  /** Text fields: what the value must look like; `''` and null are none. */
  readonly validationFormat?: ValidationFormat | '' | null;
  /** With `custom`: the pattern, as HTML's `pattern` attribute reads it. */
  readonly validationPattern?: string;
  /** Said when the value does not fit the format. */
  readonly validationHelperText?: string;
}

export interface FormField extends Omit<FormSubfield, 'type'> {
  readonly type: FormFieldType;
  /** An array field's columns. */
  readonly fields?: readonly FormSubfield[];
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface Form {
  readonly id: string;
  /** The owner: only they see and change it. */
  readonly userId: string;
  /** What the owner calls it in lists. */
  readonly name: string;
  /** The title of its page; the name when null. */
  readonly displayName: string | null;
  readonly description: string | null;
  /** Shown once the answers are in, unless a flow answers with its own words. */
  readonly responseMessage: string | null;
  readonly submitButtonText: string | null;
  readonly fields: readonly FormField[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a user sets of a form. */
export type FormDefinition = Pick<
  Form,
  'name' | 'displayName' | 'description' | 'responseMessage' | 'submitButtonText' | 'fields'
>;

/** Bounds of a form's definition, so that its page stays a page. */
export const FORM_LIMITS = {
  nameLength: 255,
  /** The description and the response message. */
  textLength: 10_000,
  fields: 100,
  subfields: 20,
  keyLength: 100,
  options: 100,
  optionLength: 255,
  patternLength: 500,
  /** Rows an array field may ask for; also how many its page offers without a bound. */
  items: 50,
} as const;

/** Sub-fields of array fields are named `<key>.<row>.<subKey>` (Automatisch's naming), so no key holds a dot. */
const keyProblem = (key: string): string | null => (key.includes('.') ? 'must not contain a dot.' : null);

/** Whether the text is a pattern the browser's `pattern` attribute can use (it compiles with the `v` flag). */
const compiles = (pattern: string): boolean => {
  try {
    new RegExp(pattern, 'v');
    return true;
  } catch {
    return false;
  }
};

const checkField = (field: FormField, at: string, problems: Map<string, string[]>, siblings: Set<string>) => {
  const add = (name: string, message: string) => problems.set(`${at}.${name}`, [message]);
  const key = keyProblem(field.key);
  if (key) add('key', key);
  else if (siblings.has(field.key)) add('key', 'is used by another field.');
  siblings.add(field.key);
  if (field.validationFormat === 'custom' && !compiles(field.validationPattern ?? '')) {
    add('validationPattern', 'must be a valid pattern.');
  }
  const { fields = [], minItems, maxItems } = field;
  if (field.type !== 'array') {
    if (fields.length) add('fields', 'are only for array fields.');
    return;
  }
  if (minItems !== undefined && maxItems !== undefined && maxItems < minItems) {
    add('maxItems', `must be at least minItems (${minItems}).`);
  }
  const keys = new Set<string>();
  for (const [index, subfield] of fields.entries()) checkField(subfield, `${at}.fields.${index}`, problems, keys);
};

/**
 * What the field shapes alone cannot say: keys unique among their siblings and free of dots, a
 * custom pattern that compiles, sub-fields only under array fields, rows bounded the right way
 * round. Null when the fields are fine; messages keyed `fields.<index>.<property>` otherwise.
 */
export const formFieldsProblems = (fields: readonly FormField[]): FieldErrors | null => {
  const problems = new Map<string, string[]>();
  const keys = new Set<string>();
  for (const [index, field] of fields.entries()) checkField(field, `fields.${index}`, problems, keys);
  return problems.size ? Object.fromEntries(problems) : null;
};

/** The title a form's page shows. */
export const formTitle = (form: Pick<Form, 'name' | 'displayName'>): string => form.displayName || form.name;
