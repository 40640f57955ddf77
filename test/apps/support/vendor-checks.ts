import { expect } from 'vitest';
import type { Credentials } from '../../../core/domain/app.js';
import type { FakeRequest, FakeVendor } from '../../support/fake-vendor.js';

/**
 * The access tokens a fake vendor has issued and still accepts (`access-1` from the start), for
 * the OAuth2 apps' tests: `issue(answer)` is a token endpoint's answer with a new pair.
 */
export const tokenIssuer = () => {
  const live = new Set(['access-1']);
  let count = 1;
  return {
    /** Whether the request carries a live `Bearer` token. */
    accepts: (req: FakeRequest) => live.has((req.headers.authorization ?? '').replace(/^Bearer /, '')),
    /** The vendor's answer: a new access token and refresh token, then `extra` (undefined leaves one out). */
    issue(extra: Readonly<Record<string, unknown>> = {}) {
      count += 1;
      live.add(`access-${count}`);
      return { access_token: `access-${count}`, refresh_token: `refresh-${count}`, ...extra };
    },
  };
};

/**
 * Runs a step with an access token the vendor does not know (expired) and a live refresh token,
 * and checks that the app renewed it once at `tokenRoute` and sent the call to `apiRoute` again
 * with the new token.
 */
export const expectOneRefresh = async (
  vendor: FakeVendor,
  routes: { readonly token: string; readonly api: string },
  step: (auth: Credentials) => Promise<unknown>,
) => {
  const before = vendor.calls(routes.token).length;
  await step({ accessToken: 'expired', refreshToken: 'refresh-1' });
  const renewals = vendor.calls(routes.token).slice(before);
  expect(renewals.map((req) => (req.body as Record<string, string>).grant_type)).toEqual(['refresh_token']);
  expect(vendor.calls(routes.api).at(-1)?.headers.authorization).toMatch(/^Bearer access-\d+$/);
};

/**
 * The vendor rate-limits the next request (429 with `Retry-After: 1`): the step fails with an
 * HttpError the engine retries after that second.
 */
export const expectRetryableRateLimit = async (vendor: FakeVendor, step: () => Promise<unknown>) => {
  vendor.rateLimit(1);
  await expect(step()).rejects.toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 1 });
};
