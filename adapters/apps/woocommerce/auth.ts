import { basicHeader, fieldsAuth, httpUrl, text } from '../sdk/index.js';

/** The store's REST API, under the WordPress site's address. */
export const storeApi = (storeUrl: string) => `${storeUrl.trim().replace(/\/+$/, '')}/wp-json/wc/v3`;

/**
 * A REST API key of the store (WooCommerce > Settings > Advanced > REST API), sent as HTTP Basic
 * credentials, which WooCommerce accepts over HTTPS only.
 */
export const woocommerceAuth = fieldsAuth({
  fields: {
    storeUrl: text({
      label: 'Store URL',
      required: true,
      placeholder: 'https://shop.example.com',
      description: "The WordPress site's address (HTTPS).",
      check: httpUrl,
    }),
    consumerKey: text({ label: 'Consumer key', required: true, secret: true, placeholder: 'ck_...' }),
    consumerSecret: text({ label: 'Consumer secret', required: true, secret: true, placeholder: 'cs_...' }),
  },
  headers: (data) => basicHeader(data.consumerKey, data.consumerSecret),
  async verify(ctx) {
    // A read that needs a valid key; then the site's own name, which the WordPress index gives.
    await ctx.http.request({ path: '/settings/general' });
    const root = `${ctx.auth.data.storeUrl.trim().replace(/\/+$/, '')}/wp-json`;
    const { data } = await ctx.http.request<{ name?: string }>({ url: root });
    return { screenName: data.name || new URL(ctx.auth.data.storeUrl).host };
  },
});
