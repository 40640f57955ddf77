import * as v from 'valibot';
import { RESOURCE_SCHEMAS } from '../../schemas/resources.schemas.js';
import { tagged } from '../operation.js';

/** API.md §6.11. Without billing configured, all but plan and usage answer 404. */
export const BILLING_OPERATIONS = tagged('Plan, usage and billing', [
  {
    method: 'GET',
    path: '/users/:userId/plan-and-usage',
    summary:
      'Your plan and the tasks used in its current period (own id only); a task is one action step run outside tests',
    access: 'signed in',
    status: 200,
    answer: RESOURCE_SCHEMAS.PlanAndUsage,
    returns: 'PlanAndUsage',
  },
  {
    method: 'GET',
    path: '/users/:userId/subscription',
    summary: 'Your current subscription (own id only; billing on); none: 404',
    access: 'signed in',
    status: 200,
    answer: RESOURCE_SCHEMAS.Subscription,
    returns: 'Subscription',
  },
  {
    method: 'GET',
    path: '/users/invoices',
    summary: 'Your invoices, newest first (billing on)',
    access: 'signed in',
    paged: true,
    status: 200,
    answer: v.array(RESOURCE_SCHEMAS.Invoice),
    returns: 'Invoice',
  },
  {
    method: 'GET',
    path: '/payment/plans',
    summary: 'The plans on sale (billing on)',
    access: 'signed in',
    status: 200,
    returns: 'Plan',
  },
  {
    method: 'POST',
    path: '/billing/webhooks',
    summary:
      "The payment provider's event (Paddle Billing format), signed in the Paddle-Signature header; each event id is applied once",
    access: 'public',
    status: 204,
    returns: 'The event is applied (or was before)',
  },
]);
