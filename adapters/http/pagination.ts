import type { Context } from 'hono';
import * as v from 'valibot';
import { type Page, type PageRequest, totalPages } from '../../core/domain/page.js';
import type { Meta } from './envelope.js';
import { queryInput } from './validation.js';

const positive = (max: number, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d+$/, 'must be a whole number.'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1.'),
    v.maxValue(max, `must be at most ${max}.`),
  );

export const pageQuerySchema = v.object({ page: positive(1_000_000, '1'), perPage: positive(100, '10') });

/** `?page=` (1-based, default 1) and `?perPage=` (default 10, at most 100), as API.md §2 says. */
export const pageQuery = (c: Context): PageRequest => queryInput(c, pageQuerySchema);

/** A page of resources in the success envelope, with the paging fields of `meta` set. */
export const sendPage = <T>(c: Context, type: string, page: Page<T>, present: (item: T) => unknown) =>
  c.json({
    data: page.items.map(present),
    meta: {
      type,
      count: page.total,
      isArray: true,
      currentPage: page.page,
      totalPages: totalPages(page),
    } satisfies Meta,
  });
