import { type DraftContext, type HttpClient, type HttpRequest, paginate } from '../sdk/index.js';

interface Page<T> {
  readonly result: readonly T[];
  readonly _metadata?: { readonly next?: string };
}

/** SendGrid's `_metadata.next` is the next page's address; its `page_token` is what changes. */
const nextToken = (data: Page<unknown>) => {
  const next = data._metadata?.next;
  return next ? new URL(next).searchParams.get('page_token') : null;
};

/** Every page of a SendGrid list answering `{ result, _metadata: { next } }`. */
export const sendgridPages = <T>(http: HttpClient, request: HttpRequest) =>
  paginate<T>(http, request, {
    kind: 'cursor',
    items: (data: Page<T>) => data.result,
    next: nextToken,
    param: 'page_token',
  });

export const listLists = async (ctx: DraftContext) => {
  const lists = await sendgridPages<{ id: string; name: string }>(ctx.http, {
    path: '/marketing/lists',
    query: { page_size: 1000 },
  });
  return lists.map((list) => ({ name: list.name, value: list.id }));
};

export const listTemplates = async (ctx: DraftContext) => {
  const templates = await sendgridPages<{ id: string; name: string }>(ctx.http, {
    path: '/templates',
    query: { generations: 'dynamic', page_size: 200 },
  });
  return templates.map((template) => ({ name: template.name, value: template.id }));
};
