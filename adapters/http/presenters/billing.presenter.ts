import type { Invoice, Period, Plan, PlanAndUsage, Subscription } from '../../../core/domain/billing.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

const period = (p: Period | null): Answer<'Period'> | null =>
  p ? { start: epochMs(p.start), end: epochMs(p.end) } : null;

/** API.md §6.11: `limit` is the plan's quota of tasks per period, null when unlimited. */
export const presentPlanAndUsage = ({ plan, tasks, period: p }: PlanAndUsage): Answer<'PlanAndUsage'> => ({
  plan: { id: plan.id, name: plan.name, limit: plan.quota },
  usage: { task: tasks, periodStart: epochMs(p.start), periodEnd: epochMs(p.end) },
});

export const presentPlan = (plan: Plan) => ({ id: plan.id, name: plan.name, quota: plan.quota, price: plan.price });

export const presentSubscription = (s: Subscription): Answer<'Subscription'> => ({
  id: s.id,
  userId: s.userId,
  planId: s.planId,
  status: s.status,
  currentPeriod: period(s.currentPeriod),
  nextBillAt: epochMs(s.nextBillAt),
  cancelUrl: s.cancelUrl,
  updateUrl: s.updateUrl,
  createdAt: epochMs(s.createdAt),
  updatedAt: epochMs(s.updatedAt),
});

export const presentInvoice = (i: Invoice): Answer<'Invoice'> => ({
  id: i.id,
  subscriptionId: i.subscriptionId,
  status: i.status,
  number: i.number,
  total: i.total,
  currency: i.currency,
  billedAt: epochMs(i.billedAt),
  period: period(i.period),
  createdAt: epochMs(i.createdAt),
  updatedAt: epochMs(i.updatedAt),
});
