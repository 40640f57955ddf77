import { type HttpClient, type Pagination, paginate, segment } from '../sdk/index.js';

export type Field = {
  id: string;
  name: string;
  type: string;
  options?: { choices?: { id: string; name: string }[] };
};
export type Table = { id: string; name: string; fields: Field[]; views: { id: string; name: string }[] };
export type AirtableRecord = { id: string; createdTime: string; fields: Record<string, unknown> };

/** Airtable's lists: an `offset` in the answer, sent back as a query parameter. */
export const byOffset = (items: string): Pagination => ({ kind: 'cursor', items, next: 'offset', param: 'offset' });

export const tablesOf = async (http: HttpClient, base: string): Promise<Table[]> =>
  paginate<Table>(http, { path: `/meta/bases/${segment(base)}/tables` }, byOffset('tables'));

export const tableOf = async (http: HttpClient, base: string, table: string): Promise<Table | null> =>
  (await tablesOf(http, base)).find((entry) => entry.id === table || entry.name === table) ?? null;

export const recordsPath = (base: string, table: string) => `/${segment(base)}/${segment(table)}`;

/** A text inside an Airtable formula's single quotes. */
export const formulaText = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
