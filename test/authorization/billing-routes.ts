import { everyone, MISSING, type RouteCase, signedIn } from './route-case.js';

/** API.md §6.11, on an instance with billing on (the matrix turns it on). */
export const BILLING_ROUTES: readonly RouteCase[] = [
  {
    method: 'GET',
    route: '/users/:userId/plan-and-usage',
    path: (_fx, actor) => `/users/${actor.userId ?? MISSING}/plan-and-usage`,
    expect: signedIn(200),
    foreign: { path: (fx) => `/users/${fx.adminId}/plan-and-usage`, status: 403 },
  },
  {
    method: 'GET',
    route: '/users/:userId/subscription',
    // Nobody in the matrix has bought anything: their own is 404, another's is refused first.
    path: (_fx, actor) => `/users/${actor.userId ?? MISSING}/subscription`,
    expect: signedIn(404),
    foreign: { path: (fx) => `/users/${fx.adminId}/subscription`, status: 403 },
  },
  { method: 'GET', route: '/users/invoices', path: () => '/users/invoices', expect: signedIn(200) },
  { method: 'GET', route: '/payment/plans', path: () => '/payment/plans', expect: signedIn(200) },
  {
    method: 'POST',
    route: '/billing/webhooks',
    // Public, but only the payment provider can sign: an unsigned event is refused whoever sends it.
    path: () => '/billing/webhooks',
    body: () => ({ event_id: 'evt_unsigned', event_type: 'subscription.created', data: {} }),
    expect: everyone(401),
  },
];
