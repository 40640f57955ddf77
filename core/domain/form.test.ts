import { describe, expect, it } from 'vitest';
import { type FormField, formFieldsProblems, formTitle } from './form.js';

describe('formFieldsProblems', () => {
  it('takes Automatisch’s fields as its client sends them', () => {
    const fields: FormField[] = [
      { name: 'Email', key: 'email', type: 'string', required: true, validationFormat: 'email' },
      { name: 'Code', key: 'code', type: 'string', validationFormat: 'custom', validationPattern: '^[A-Z]{3}-\\d{3}$' },
      { name: 'Plan', key: 'plan', type: 'dropdown', options: [{ value: 'Free' }, { value: 'Pro' }] },
      { name: 'Comments', key: 'comments', type: 'multiline', options: [{ value: '' }], fields: [] },
      {
        name: 'Guests',
        key: 'guests',
        type: 'array',
        minItems: 1,
        maxItems: 3,
        fields: [
          { name: 'Name', key: 'name', type: 'string', required: true },
          { name: 'Vegan', key: 'vegan', type: 'checkbox' },
        ],
      },
    ];
    expect(formFieldsProblems(fields)).toBeNull();
  });

  it('names each field at fault by its place: repeated or dotted keys, bad patterns, rows the wrong way round', () => {
    const fields: FormField[] = [
      { name: 'A', key: 'same', type: 'string' },
      { name: 'B', key: 'same', type: 'string' },
      { name: 'C', key: 'a.b', type: 'string' },
      { name: 'D', key: 'd', type: 'string', validationFormat: 'custom', validationPattern: '([a-z' },
      { name: 'E', key: 'e', type: 'string', fields: [{ name: 'X', key: 'x', type: 'string' }] },
      {
        name: 'F',
        key: 'f',
        type: 'array',
        minItems: 3,
        maxItems: 2,
        fields: [
          { name: 'X', key: 'x', type: 'string' },
          { name: 'Y', key: 'x', type: 'date' },
        ],
      },
    ];
    expect(formFieldsProblems(fields)).toEqual({
      'fields.1.key': ['is used by another field.'],
      'fields.2.key': ['must not contain a dot.'],
      'fields.3.validationPattern': ['must be a valid pattern.'],
      'fields.4.fields': ['are only for array fields.'],
      'fields.5.maxItems': ['must be at least minItems (3).'],
      'fields.5.fields.1.key': ['is used by another field.'],
    });
  });

  it('lets sub-fields reuse the keys of top-level fields: each row is an object of its own', () => {
    const fields: FormField[] = [
      { name: 'Name', key: 'name', type: 'string' },
      { name: 'Rows', key: 'rows', type: 'array', fields: [{ name: 'Name', key: 'name', type: 'string' }] },
    ];
    expect(formFieldsProblems(fields)).toBeNull();
  });
});

describe('formTitle', () => {
  it('is the display name, else the name', () => {
    expect(formTitle({ name: 'Leads', displayName: 'Contact us' })).toBe('Contact us');
    expect(formTitle({ name: 'Leads', displayName: null })).toBe('Leads');
    expect(formTitle({ name: 'Leads', displayName: '' })).toBe('Leads');
  });
});
