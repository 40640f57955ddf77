import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface Meta {
  readonly type: string;
  readonly count: number;
  readonly isArray: boolean;
  readonly currentPage: number | null;
  readonly totalPages: number | null;
}

/** One resource in the success envelope of API.md §2. */
export const sendOne = (c: Context, type: string, data: unknown, status: ContentfulStatusCode = 200) =>
  c.json(
    { data, meta: { type, count: 1, isArray: false, currentPage: null, totalPages: null } satisfies Meta },
    status,
  );

/** An unpaginated array in the success envelope. */
export const sendMany = (c: Context, type: string, data: readonly unknown[]) =>
  c.json({
    data,
    meta: { type, count: data.length, isArray: true, currentPage: null, totalPages: null } satisfies Meta,
  });

export const sendNoContent = (c: Context) => c.body(null, 204);
