import { basicHeader, fieldsAuth, httpUrl, text } from '../sdk/index.js';

/**
 * A self-hosted site and an application password (Users → Profile → Application Passwords),
 * sent with HTTP basic authentication. `userLogin` and `password` are the keys Automatisch stores
 * after WordPress's authorize-application page.
 */
export const wordpressAuth = fieldsAuth({
  fields: {
    instanceUrl: text({
      label: 'WordPress site URL',
      required: true,
      placeholder: 'https://blog.example.com',
      check: httpUrl,
    }),
    userLogin: text({ label: 'Username', required: true }),
    password: text({ label: 'Application password', required: true, secret: true }),
  },
  headers: (data) => basicHeader(data.userLogin, data.password),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ slug?: unknown; name?: unknown }>({
      path: '/',
      query: { rest_route: '/wp/v2/users/me' },
    });
    const who = typeof data.slug === 'string' ? data.slug : ctx.auth.data.userLogin;
    return { screenName: `${who} @ ${new URL(ctx.auth.data.instanceUrl).host}` };
  },
});
