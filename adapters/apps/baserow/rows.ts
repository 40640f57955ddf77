import { type HttpClient, type KeyValue, type PaginateLimits, paginate, segment } from '../sdk/index.js';

export type Row = { readonly id: number } & Record<string, unknown>;

/** Rows by the names users gave their fields (not `field_123`). */
export const BY_NAME = { user_field_names: true };

export const rowsPath = (tableId: string) => `/api/database/rows/table/${segment(tableId)}/`;
export const rowPath = (tableId: string, rowId: string) => `${rowsPath(tableId)}${segment(rowId)}/`;

/**
 * A row's values by field name. Text that is a JSON list or object is sent parsed: link rows and
 * multiple selects take lists; anything else is text, which Baserow reads for the field's type.
 */
export const valuesOf = (pairs: readonly KeyValue[]) =>
  Object.fromEntries(
    pairs.map(({ key, value }) => {
      const trimmed = value.trim();
      if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
        try {
          return [key, JSON.parse(trimmed)];
        } catch {
          return [key, value];
        }
      }
      return [key, value];
    }),
  );

/** Baserow's pages: `page` from 1, `size` at most 200, `next` null on the last. */
export const rowPages = (
  http: HttpClient,
  tableId: string,
  query: Record<string, string | number | boolean>,
  limits?: PaginateLimits,
) =>
  paginate<Row>(
    http,
    { path: rowsPath(tableId), query: { ...BY_NAME, size: 200, ...query } },
    { kind: 'page', items: 'results', param: 'page', hasMore: (data: { next: string | null }) => data.next !== null },
    limits,
  );

/** The table's fields: name, type, and which one is primary. */
export const fieldsOf = async (http: HttpClient, tableId: string) =>
  (
    await http.request<readonly { id: number; name: string; type: string; primary: boolean }[]>({
      path: `/api/database/fields/table/${segment(tableId)}/`,
    })
  ).data;
