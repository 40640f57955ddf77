import { fieldsAuth, httpUrl, text } from '../sdk/index.js';

export const BASEROW_CLOUD = 'https://api.baserow.io';

/**
 * A database token (Settings → Database tokens): it reaches rows and fields of the tables it was
 * given, on Baserow's cloud or on the self-hosted server the connection names.
 */
export const baserowAuth = fieldsAuth({
  fields: {
    instanceUrl: text({
      label: 'Baserow URL',
      description: "A self-hosted server's address; empty for Baserow's cloud.",
      placeholder: BASEROW_CLOUD,
      check: httpUrl,
    }),
    token: text({ label: 'Database token', required: true, secret: true }),
  },
  headers: (data) => ({ authorization: `Token ${data.token}` }),
  async verify(ctx) {
    await ctx.http.request({ path: '/api/database/tokens/check/' });
    // A database token has no user: the tables it may reach say what it is for.
    const { data: tables } = await ctx.http.request<readonly unknown[]>({ path: '/api/database/tables/all-tables/' });
    const host = new URL(ctx.auth.data.instanceUrl || BASEROW_CLOUD).host;
    return { screenName: `${host} (${tables.length} ${tables.length === 1 ? 'table' : 'tables'})` };
  },
});
