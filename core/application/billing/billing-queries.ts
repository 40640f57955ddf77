import type { Actor } from '../../domain/actor.js';
import type { Invoice, Plan, PlanAndUsage, Subscription } from '../../domain/billing.js';
import { billingDisabled, type DomainError, notFound } from '../../domain/errors.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { ownAccountOnly } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';
import { type Billing, currentSubscription } from './plan-and-usage.js';

/** The reads of API.md §6.11: plan and usage always; subscription, invoices and plans with billing on. */
export const makeBillingQueries = (deps: Pick<CoreDeps, 'repos'> & { readonly billing: Billing }) => {
  const { repos, billing } = deps;
  return {
    async getPlanAndUsage(actor: Actor, userId: string): Promise<Result<PlanAndUsage, DomainError>> {
      const refused = ownAccountOnly(actor, userId);
      if (refused) return err(refused);
      return ok(await billing.planAndUsage(userId));
    },

    async getSubscription(actor: Actor, userId: string): Promise<Result<Subscription, DomainError>> {
      const refused = ownAccountOnly(actor, userId);
      if (refused) return err(refused);
      if (!billing.enabled) return err(billingDisabled());
      const current = currentSubscription(await repos.subscriptions.listByUser(userId));
      return current ? ok(current) : err(notFound('Subscription'));
    },

    async listInvoices(actor: Actor, page: PageRequest): Promise<Result<Page<Invoice>, DomainError>> {
      if (!billing.enabled) return err(billingDisabled());
      return ok(await repos.invoices.listByUser(actor.user.id, page));
    },

    listPlans(): Result<readonly Plan[], DomainError> {
      return billing.enabled ? ok(billing.plans) : err(billingDisabled());
    },
  };
};
