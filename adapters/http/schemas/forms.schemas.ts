import * as v from 'valibot';
import { FORM_FIELD_TYPES, FORM_LIMITS, SUBFIELD_TYPES, VALIDATION_FORMATS } from '../../../core/domain/form.js';
import { closedObject } from './fields.js';

const text = (max: number) =>
  v.pipe(v.string('must be a string.'), v.maxLength(max, `must be at most ${max} characters.`));
const nonEmpty = (max: number) =>
  v.pipe(v.string('must be a string.'), v.trim(), v.nonEmpty('is required.'), text(max));
/** A text a form may go without: left out keeps it, null clears it. */
const optionalText = (max: number) => v.optional(v.nullable(text(max)));
const flag = v.optional(v.boolean('must be a boolean.'));
const whole = (min: number) =>
  v.pipe(
    v.number('must be a number.'),
    v.integer('must be a whole number.'),
    v.minValue(min, `must be at least ${min}.`),
    v.maxValue(FORM_LIMITS.items, `must be at most ${FORM_LIMITS.items}.`),
  );
const listOf = <S extends v.GenericSchema>(item: S, max: number) =>
  v.pipe(v.array(item, 'must be an array.'), v.maxLength(max, `must have at most ${max} entries.`));

/** What every field has, as Automatisch's model names it. */
const fieldEntries = {
  name: nonEmpty(FORM_LIMITS.nameLength),
  key: v.pipe(
    v.string('must be a string.'),
    v.nonEmpty('is required.'),
    v.maxLength(FORM_LIMITS.keyLength, `must be at most ${FORM_LIMITS.keyLength} characters.`),
  ),
  options: v.optional(listOf(closedObject({ value: text(FORM_LIMITS.optionLength) }), FORM_LIMITS.options)),
  required: flag,
  readonly: flag,
  validationFormat: v.optional(
    v.nullable(v.picklist(['', ...VALIDATION_FORMATS], `must be one of: ${VALIDATION_FORMATS.join(', ')}.`)),
  ),
  validationPattern: v.optional(text(FORM_LIMITS.patternLength)),
  validationHelperText: v.optional(text(FORM_LIMITS.nameLength)),
};

const subfield = closedObject({
  ...fieldEntries,
  type: v.picklist(SUBFIELD_TYPES, `must be one of: ${SUBFIELD_TYPES.join(', ')}.`),
});

const field = closedObject({
  ...fieldEntries,
  type: v.picklist(FORM_FIELD_TYPES, `must be one of: ${FORM_FIELD_TYPES.join(', ')}.`),
  fields: v.optional(listOf(subfield, FORM_LIMITS.subfields)),
  minItems: v.optional(whole(0)),
  maxItems: v.optional(whole(1)),
});

const formEntries = {
  displayName: optionalText(FORM_LIMITS.nameLength),
  description: optionalText(FORM_LIMITS.textLength),
  responseMessage: optionalText(FORM_LIMITS.textLength),
  submitButtonText: optionalText(FORM_LIMITS.nameLength),
  fields: v.optional(listOf(field, FORM_LIMITS.fields)),
};

/** `POST /forms`: the name, and whatever else the form has to say. */
export const newFormSchema = closedObject({ name: nonEmpty(FORM_LIMITS.nameLength), ...formEntries });

/** `PATCH /forms/:formId`: any of it. */
export const formChangesSchema = closedObject({ name: v.optional(nonEmpty(FORM_LIMITS.nameLength)), ...formEntries });
