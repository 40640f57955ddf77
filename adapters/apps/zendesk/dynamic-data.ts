import { type DraftContext, type Pagination, paginate } from '../sdk/index.js';

interface Named {
  readonly id: number;
  readonly name?: string;
  readonly title?: string;
  readonly subject?: string;
  readonly role?: string;
}

/** Zendesk's cursor pagination: `page[size]`, then `page[after]` while `meta.has_more`. */
const byCursor = (items: string): Pagination => ({
  kind: 'cursor',
  items,
  param: 'page[after]',
  next: (data: { meta?: { has_more?: boolean; after_cursor?: string } }) =>
    data.meta?.has_more ? data.meta.after_cursor : null,
});

const list = async (ctx: DraftContext, path: string, items: string, name: (item: Named) => string | undefined) => {
  const entries = await paginate<Named>(ctx.http, { path, query: { 'page[size]': 100 } }, byCursor(items));
  return entries.map((entry) => ({ name: name(entry) ?? String(entry.id), value: String(entry.id) }));
};

/** Agents and administrators (assignees, submitters, collaborators), with their role. */
export const listUsers = (ctx: DraftContext) =>
  list(ctx, '/users?role[]=agent&role[]=admin', 'users', (user) => `${user.name} (${user.role})`);

export const listGroups = (ctx: DraftContext) => list(ctx, '/groups', 'groups', (group) => group.name);

export const listOrganizations = (ctx: DraftContext) =>
  list(ctx, '/organizations', 'organizations', (organization) => organization.name);

export const listViews = (ctx: DraftContext) => list(ctx, '/views', 'views', (view) => view.title);

/** Brands (multi-brand plans), by numbered pages as Zendesk lists them. */
export const listBrands = async (ctx: DraftContext) => {
  const brands = await paginate<Named>(
    ctx.http,
    { path: '/brands', query: { per_page: 100 } },
    {
      kind: 'page',
      items: 'brands',
      param: 'page',
      hasMore: (data: { next_page?: string | null }) => !!data.next_page,
    },
  );
  return brands.map((brand) => ({ name: brand.name ?? String(brand.id), value: String(brand.id) }));
};

/** Ticket forms (Enterprise plans): Zendesk answers them all at once. */
export const listTicketForms = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ ticket_forms: Named[] }>({ path: '/ticket_forms' });
  return data.ticket_forms.map((form) => ({ name: form.name ?? String(form.id), value: String(form.id) }));
};

/** The 100 newest tickets, as Automatisch's dropdown shows them (a ticket id may be typed too). */
export const listFirstPageOfTickets = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ tickets: Named[] }>({
    path: '/tickets',
    query: { 'page[size]': 100, sort: '-id' },
  });
  return data.tickets.map((ticket) => ({ name: ticket.subject ?? String(ticket.id), value: String(ticket.id) }));
};
