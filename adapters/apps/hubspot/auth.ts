import { oauth2Auth } from '../sdk/index.js';

interface AccountDetails {
  readonly portalId: number;
  readonly portalName?: string;
  readonly uiDomain?: string;
}

/**
 * HubSpot's authorization-code flow with the v3 token endpoint (credentials in the form body; v1
 * is deprecated). The app's scopes in HubSpot must list these, as required or optional scopes.
 */
export const hubspotAuth = oauth2Auth({
  authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
  tokenUrl: 'https://api.hubapi.com/oauth/v3/token',
  scopes: [
    'oauth',
    'crm.objects.contacts.read',
    'crm.objects.contacts.write',
    'crm.objects.companies.read',
    'crm.objects.companies.write',
    'crm.objects.deals.read',
    'crm.objects.deals.write',
    'crm.objects.owners.read',
  ],
  async profile(ctx) {
    // The account's details need only the `oauth` scope; the token never goes in a URL.
    const { data } = await ctx.http.request<AccountDetails>({ path: '/account-info/v3/details' });
    return { screenName: data.portalName ?? `HubSpot account ${data.portalId}` };
  },
});
