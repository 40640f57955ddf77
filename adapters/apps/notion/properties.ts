import * as v from 'valibot';
import { type Argument, dropdown, json, text } from '../sdk/index.js';
import { type Database, richText } from './api.js';

type Schema = Database['properties'][string];

/** A list of values, or Automatisch's rows of them (`[{ <row>: value }]`); empty ones dropped. */
const listOf = (row: string, message: string) =>
  v.pipe(
    v.array(v.union([v.string(), v.record(v.string(), v.unknown())]), message),
    v.transform((items) =>
      items
        .map((item) => (typeof item === 'string' ? { [row]: item } : item))
        .filter((item) => typeof item[row] === 'string' && item[row] !== ''),
    ),
  );

/**
 * One kind of property: the field the step shows for it (Automatisch's key `property_<name>`) and
 * the value Notion takes. Computed ones (formulas, rollups, who and when) are not written.
 */
interface Kind {
  field(name: string, schema: Schema): Argument<unknown>;
  value(input: any): unknown;
}

const textKind = (what: string, value: (input: string) => unknown): Kind => ({
  field: (name) => text({ label: name, description: `${what}.`, acceptsVariables: true }),
  value,
});

const rows = (row: string, what: string, value: (items: Record<string, unknown>[]) => unknown): Kind => ({
  field: (name) =>
    json({
      label: name,
      description: `${what}: a JSON list, or Automatisch's rows.`,
      acceptsVariables: true,
      schema: listOf(row, `must be a list of ${what.toLowerCase()}.`),
    }),
  value,
});

const KINDS: Readonly<Record<string, Kind>> = {
  title: textKind('Title', (input) => ({ title: richText(input) })),
  rich_text: textKind('Text', (input) => ({ rich_text: richText(input) })),
  email: textKind('E-mail address', (input) => ({ email: input })),
  phone_number: textKind('Phone number', (input) => ({ phone_number: input })),
  url: textKind('URL', (input) => ({ url: input })),
  date: textKind('Date: 2025-06-30, or 2025-06-30T17:00:00', (input) => ({ date: { start: input } })),
  number: {
    field: (name) =>
      text({
        label: name,
        description: 'A number.',
        acceptsVariables: true,
        check: (input) => (Number.isFinite(Number(input)) ? null : 'must be a number.'),
      }),
    value: (input: string) => ({ number: Number(input) }),
  },
  checkbox: {
    field: (name) =>
      dropdown({
        label: name,
        options: [
          { label: 'True', value: 'true' },
          { label: 'False', value: 'false' },
        ],
      }),
    value: (input: string) => ({ checkbox: input === 'true' }),
  },
  select: {
    field: (name, schema) =>
      dropdown({
        label: name,
        acceptsVariables: true,
        options: (schema.select?.options ?? []).map((option) => ({ label: option.name, value: option.name })),
      }),
    value: (input: string) => ({ select: { name: input } }),
  },
  multi_select: rows('option', 'Options', (items) => ({ multi_select: items.map((item) => ({ name: item.option })) })),
  people: rows('userId', 'User ids', (items) => ({
    people: items.map((item) => ({ object: 'user', id: item.userId })),
  })),
  files: rows('url', 'File URLs', (items) => ({
    files: items.map((item) => ({
      name: typeof item.name === 'string' && item.name ? item.name : 'File',
      external: { url: item.url },
    })),
  })),
  relation: rows('pageId', 'Page ids', (items) => ({ relation: items.map((item) => ({ id: item.pageId })) })),
};

export const PROPERTY_PREFIX = 'property_';

/** The fields a database's writable properties make, keyed `property_<name>` as in Automatisch. */
export const propertyFields = (database: Database) =>
  Object.fromEntries(
    Object.entries(database.properties).flatMap(([name, schema]) => {
      const kind = KINDS[schema.type];
      return kind ? [[`${PROPERTY_PREFIX}${name}`, kind.field(name, schema)]] : [];
    }),
  ) as Record<string, Argument<unknown>>;

/** Notion's `properties` for the values given (validated against `propertyFields`); empty ones are left alone. */
export const propertyValues = (database: Database, values: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(values).flatMap(([key, value]) => {
      const name = key.slice(PROPERTY_PREFIX.length);
      const kind = KINDS[database.properties[name]?.type ?? ''];
      if (!kind || value === undefined || (Array.isArray(value) && value.length === 0)) return [];
      return [[name, kind.value(value)]];
    }),
  );
