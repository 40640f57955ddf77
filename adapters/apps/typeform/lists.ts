import { type DraftContext, type HttpClient, paginate } from '../sdk/index.js';

/** Typeform's list answers: `{ total_items, page_count, items }`. */
interface Page<T> {
  readonly items: readonly T[];
}

const PAGE_SIZE = 200;

/** Every page of a Typeform list (`page` from 1, `page_size` at most 200); a short page is the last. */
export const typeformPages = <T>(http: HttpClient, path: string, query: Record<string, string> = {}) =>
  paginate<T>(
    http,
    { path, query: { ...query, page_size: PAGE_SIZE } },
    { kind: 'page', items: (data: Page<T>) => data.items, param: 'page', pageSize: PAGE_SIZE },
  );

export const listForms = async (ctx: DraftContext) => {
  const forms = await typeformPages<{ id: string; title: string }>(ctx.http, '/forms');
  return forms.map((form) => ({ name: form.title, value: form.id }));
};

export const listWorkspaces = async (ctx: DraftContext) => {
  const workspaces = await typeformPages<{ id: string; name: string }>(ctx.http, '/workspaces');
  return workspaces.map((workspace) => ({ name: workspace.name, value: workspace.id }));
};
