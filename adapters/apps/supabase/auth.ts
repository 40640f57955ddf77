import { fieldsAuth, httpUrl, text } from '../sdk/index.js';

/** Legacy keys (anon, service_role) are JWTs; the new secret keys (`sb_secret_...`) are not. */
const isJwt = (key: string) => key.split('.').length === 3 && key.startsWith('eyJ');

/**
 * A project (Supabase's cloud, or a self-hosted one) and a key that bypasses row level security:
 * a secret key, or the legacy service_role key. The gateway reads the key in `apikey`; a legacy
 * key is also the bearer token PostgREST takes the role from, while a secret key is not a token
 * and is only sent as `apikey` (the gateway then gives PostgREST the service role).
 */
export const supabaseAuth = fieldsAuth({
  fields: {
    projectUrl: text({
      label: 'Project URL',
      required: true,
      placeholder: 'https://<project-ref>.supabase.co',
      check: httpUrl,
    }),
    serviceRoleKey: text({
      label: 'Secret key',
      required: true,
      secret: true,
      description: 'Project Settings → API Keys: a secret key (sb_secret_...) or the legacy service_role key.',
    }),
  },
  headers: (data) => ({
    apikey: data.serviceRoleKey,
    ...(isJwt(data.serviceRoleKey) && { authorization: `Bearer ${data.serviceRoleKey}` }),
  }),
  async verify(ctx) {
    // The Data API's description of the schema: it answers a working secret key only.
    await ctx.http.request({ path: '/' });
    return { screenName: new URL(ctx.auth.data.projectUrl).host };
  },
});

/** The project's Data API (PostgREST). */
export const dataApi = (projectUrl: string) => `${projectUrl.replace(/\/+$/, '')}/rest/v1`;
