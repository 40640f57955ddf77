import type { DraftContext } from '../sdk/index.js';
import { wpPages, wpRequest } from './rest.js';

type Named = { readonly id: number; readonly name: string };

const options = async (ctx: DraftContext, route: string, name: (entry: any) => string) => {
  const entries = await wpPages<{ id: number }>(ctx.http, route, { order: 'desc' });
  return entries.map((entry) => ({ name: name(entry), value: String(entry.id) }));
};

export const listCategories = (ctx: DraftContext) => options(ctx, '/wp/v2/categories', (c: Named) => c.name);
export const listTags = (ctx: DraftContext) => options(ctx, '/wp/v2/tags', (t: Named) => t.name);
export const listUsers = (ctx: DraftContext) => options(ctx, '/wp/v2/users', (u: Named) => u.name);
export const listMedia = (ctx: DraftContext) =>
  options(ctx, '/wp/v2/media', (m: { slug: string; title?: { rendered?: string } }) => m.title?.rendered || m.slug);

export const listPosts = async (ctx: DraftContext) => {
  const posts = await wpPages<{ id: number; status: string; title: { rendered: string } }>(ctx.http, '/wp/v2/posts', {
    order: 'desc',
    status: 'publish,future,draft,pending,private',
  });
  return posts.map((post) => ({ name: `${post.title.rendered} (${post.status})`, value: String(post.id) }));
};

/** The site's post statuses (an object keyed by slug, not a list). */
export const listStatuses = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<Record<string, { name: string; slug: string }>>(wpRequest('/wp/v2/statuses'));
  return Object.values(data).map((status) => ({ name: status.name, value: status.slug }));
};
