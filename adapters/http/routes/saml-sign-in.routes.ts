import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { DomainError } from '../../../core/domain/errors.js';
import { clientAddress } from '../client-address.js';
import { startConsoleSession } from '../console-session.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { fail } from '../failures.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { bodyText } from '../request-body.js';
import { samlMessageSchema } from '../schemas/saml.schemas.js';

/** The fields an IdP posts (HTTP-POST binding); anything else reads as no fields. */
const postedFields = async (c: Context) => {
  if (!/^application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '')) return {};
  const parsed = v.safeParse(samlMessageSchema, Object.fromEntries(new URLSearchParams(await bodyText(c))));
  return parsed.success ? parsed.output : {};
};

/**
 * Single sign-on (API.md §9), outside the API mounts: browsers arrive here from a login page and
 * from the IdP. Any refusal sends the browser to the web app's login page with `error=saml`; the
 * reason is only logged. Too many calls from one address answer 429 with Retry-After instead.
 * Without a licence these answer 403 like every enterprise route.
 */
export const samlSignInRoutes = (deps: HttpDeps) => {
  const { useCases, settings } = deps;
  const redirect = (c: Context, url: string) => {
    // The address may carry a session token: no cache may keep it.
    c.header('Cache-Control', 'no-store');
    return c.redirect(url, 302);
  };
  const refused = (c: Context, error: DomainError) =>
    error.code === 'auth.rate_limited' ? fail(error) : redirect(c, `${settings.webAppUrl}/login?error=saml`);
  const address = (c: Context) => clientAddress(c, settings.trustedProxies);

  return new Hono<AppEnv>()
    .use('/login/saml/*', requireEnterprise(deps))
    .use('/logout/saml/*', requireEnterprise(deps))
    .get('/login/saml/:issuer', async (c) => {
      const started = await useCases.startSamlSignIn(c.req.param('issuer'), address(c));
      return started.ok ? redirect(c, started.value.redirectTo) : refused(c, started.error);
    })
    .post('/login/saml/:issuer/callback', async (c) => {
      const { SAMLResponse } = await postedFields(c);
      const signedIn = await useCases.finishSamlSignIn(c.req.param('issuer'), SAMLResponse ?? '', address(c));
      if (!signedIn.ok) return refused(c, signedIn.error);
      // The console's session starts here; the token stays in the address for Automatisch's web
      // client, which reads it there (the console takes it out of the address at once).
      startConsoleSession(c, settings, signedIn.value);
      return redirect(c, `${settings.webAppUrl}/login/callback?token=${encodeURIComponent(signedIn.value.token)}`);
    })
    .post('/logout/saml/:issuer', async (c) => {
      const { SAMLRequest, RelayState } = await postedFields(c);
      const done = await useCases.samlLogout(c.req.param('issuer'), SAMLRequest ?? '', RelayState ?? null, address(c));
      return done.ok ? redirect(c, done.value.redirectTo) : refused(c, done.error);
    });
};
