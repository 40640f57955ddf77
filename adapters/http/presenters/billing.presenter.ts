import type { Invoice, Period, Plan, PlanAndUsage, Subscription } from '../../../core/domain/billing.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const period = (p: Period | null) => (p ? { start: p.start.toISOString(), end: p.end.toISOString() } : null);

/** API.md §6.11: `limit` is the plan's quota of tasks per period, null when unlimited. */
export const presentPlanAndUsage = ({ plan, tasks, period: p }: PlanAndUsage) => ({
  plan: { id: plan.id, name: plan.name, limit: plan.quota },
  usage: { task: tasks, periodStart: p.start.toISOString(), periodEnd: p.end.toISOString() },
});

export const presentPlan = (plan: Plan) => ({ id: plan.id, name: plan.name, quota: plan.quota, price: plan.price });

export const presentSubscription = (s: Subscription) => ({
  id: s.id,
  userId: s.userId,
  planId: s.planId,
  status: s.status,
  currentPeriod: period(s.currentPeriod),
  nextBillAt: iso(s.nextBillAt),
  cancelUrl: s.cancelUrl,
  updateUrl: s.updateUrl,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

export const presentInvoice = (i: Invoice) => ({
  id: i.id,
  subscriptionId: i.subscriptionId,
  status: i.status,
  number: i.number,
  total: i.total,
  currency: i.currency,
  billedAt: iso(i.billedAt),
  period: period(i.period),
  createdAt: i.createdAt.toISOString(),
  updatedAt: i.updatedAt.toISOString(),
});
