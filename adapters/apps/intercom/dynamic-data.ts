import { type DraftContext, paginate } from '../sdk/index.js';

/** The workspace's teammates (Intercom answers them all at once). */
export const listAdmins = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ admins: { id: string; name: string; email?: string }[] }>({
    path: '/admins',
  });
  return data.admins.map((admin) => ({
    name: admin.email ? `${admin.name} (${admin.email})` : admin.name,
    value: admin.id,
  }));
};

/** The workspace's tags (all at once). */
export const listTags = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ data: { id: string; name: string }[] }>({ path: '/tags' });
  return data.data.map((tag) => ({ name: tag.name, value: tag.id }));
};

/** Contacts, by the cursor in `pages.next.starting_after` (up to the kit's limit of 1,000). */
export const listContacts = async (ctx: DraftContext) => {
  const contacts = await paginate<{ id: string; name?: string | null; email?: string | null }>(
    ctx.http,
    { path: '/contacts', query: { per_page: 150 } },
    { kind: 'cursor', items: 'data', next: 'pages.next.starting_after', param: 'starting_after' },
  );
  return contacts.map((contact) => ({ name: contact.name ?? contact.email ?? contact.id, value: contact.id }));
};
