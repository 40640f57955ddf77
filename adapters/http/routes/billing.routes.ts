import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import {
  presentInvoice,
  presentPlan,
  presentPlanAndUsage,
  presentSubscription,
} from '../presenters/billing.presenter.js';
import { bodyText } from '../request-body.js';
import { unwrap } from '../respond.js';
import { idParam } from '../validation.js';

/** API.md §6.11: plan and usage, and with billing on, plans, the subscription, invoices and the provider's webhooks. */
export const billingRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const authenticated = requireActor(deps);
  return new Hono<AppEnv>()
    .get('/users/invoices', authenticated, requireAccess(deps)({ to: 'signed-in' }), async (c) => {
      const page = unwrap(await useCases.listInvoices(c.var.actor, pageQuery(c)));
      return sendPage(c, 'Invoice', page, presentInvoice);
    })
    .get('/users/:userId/plan-and-usage', authenticated, async (c) => {
      const userId = idParam(c, 'userId', 'User');
      return sendOne(
        c,
        'PlanAndUsage',
        presentPlanAndUsage(unwrap(await useCases.getPlanAndUsage(c.var.actor, userId))),
      );
    })
    .get('/users/:userId/subscription', authenticated, async (c) => {
      const userId = idParam(c, 'userId', 'User');
      return sendOne(
        c,
        'Subscription',
        presentSubscription(unwrap(await useCases.getSubscription(c.var.actor, userId))),
      );
    })
    .get('/payment/plans', authenticated, (c) => sendMany(c, 'Plan', unwrap(useCases.listPlans()).map(presentPlan)))
    .post('/billing/webhooks', async (c) => {
      // The signature covers the exact bytes sent, so the body is read raw, never re-serialised.
      const raw = await bodyText(c);
      unwrap(await useCases.receiveBillingWebhook(raw, c.req.header('paddle-signature') ?? null));
      return sendNoContent(c);
    });
};
