import type { AppContext } from '../sdk/index.js';

const PAGE = 100;

/** The target of a Link header's relation (`last`, `prev`), if any. */
const linked = (header: string | undefined, relation: string): string | null => {
  for (const part of (header ?? '').split(/,(?=\s*<)/)) {
    const [, target, params = ''] = /^\s*<([^>]*)>(.*)$/.exec(part) ?? [];
    const rels = /\brel="?([^";]*)"?/.exec(params)?.[1]?.split(/\s+/) ?? [];
    if (target && rels.includes(relation)) return target;
  }
  return null;
};

/**
 * The newest entries of a list GitHub gives oldest first (stargazers, watchers), newest first: its
 * last page, and the page before when the last is short, so that a poll sees at least a page's worth.
 */
export const newestEntries = async <T>(
  ctx: AppContext<unknown>,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<T[]> => {
  const first = await ctx.http.request<T[]>({ path, query: { per_page: PAGE }, headers });
  const last = linked(first.headers.link, 'last');
  if (!last) return [...first.data].reverse();
  const end = await ctx.http.request<T[]>({ url: last, headers });
  const previous = end.data.length < PAGE ? linked(end.headers.link, 'prev') : null;
  const before = previous ? (await ctx.http.request<T[]>({ url: previous, headers })).data : [];
  return [...before, ...end.data].reverse();
};
