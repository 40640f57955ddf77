import { bearerHeader, fieldsAuth, matches, text } from '../sdk/index.js';

interface StripeAccount {
  readonly id: string;
  readonly email?: string | null;
  readonly business_profile?: { readonly name?: string | null } | null;
  readonly settings?: { readonly dashboard?: { readonly display_name?: string | null } | null } | null;
}

/** A secret or restricted API key, sent as a bearer token (Stripe also takes it as Basic user). */
export const stripeAuth = fieldsAuth({
  fields: {
    secretKey: text({
      label: 'Secret key',
      required: true,
      secret: true,
      description: 'A secret key (sk_live_..., sk_test_...) or a restricted key (rk_...) from the Stripe dashboard.',
      check: matches(/^(sk|rk)_(live|test)_\S+$/, 'must be a secret (sk_...) or restricted (rk_...) key.'),
    }),
    displayName: text({
      label: 'Account name',
      description: "How this connection is shown; the account's own name when empty.",
    }),
  },
  headers: (data) => bearerHeader(data.secretKey),
  async verify(ctx) {
    // The account the key belongs to: a cheap read every key that may list payments can make.
    const { data: account } = await ctx.http.request<StripeAccount>({ path: '/v1/account' });
    const name =
      ctx.auth.data.displayName ??
      account.settings?.dashboard?.display_name ??
      account.business_profile?.name ??
      account.email ??
      account.id;
    return { screenName: name };
  },
});
