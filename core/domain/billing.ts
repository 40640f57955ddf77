/**
 * Plans, usage and the payment provider's subscriptions and invoices (API.md §6.11). A task is one
 * action step the engine ran in a run that is not a test; a run's tasks count when it finishes.
 */

/** The tasks a finished run bills: the actions it ran, or null for a test run, which is never billed. */
export const runTasks = (testRun: boolean, actionsRun: number): number | null => (testRun ? null : actionsRun);

export interface Plan {
  readonly id: string;
  readonly name: string;
  /** Tasks per billing period; null is unlimited. */
  readonly quota: number | null;
  /** As shown to users ("€20 / month"); null for a plan nobody buys. */
  readonly price: string | null;
}

/** Without billing every user has this plan. */
export const SELF_HOSTED_PLAN: Plan = { id: 'self-hosted', name: 'Self-hosted', quota: null, price: null };

export interface Period {
  readonly start: Date;
  /** Exclusive. */
  readonly end: Date;
}

/** The calendar month (UTC) holding `now`: the period of users without a paid subscription. */
export const calendarMonth = (now: Date): Period => ({
  start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
  end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
});

export interface PlanAndUsage {
  readonly plan: Plan;
  readonly tasks: number;
  readonly period: Period;
}

export const isOverQuota = ({ plan, tasks }: Pick<PlanAndUsage, 'plan' | 'tasks'>): boolean =>
  plan.quota !== null && tasks >= plan.quota;

/** Paddle Billing's subscription states. */
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** States in which the subscription's plan applies (past due: the provider is still collecting). */
export const grantsPlan = (status: SubscriptionStatus): boolean =>
  status === 'active' || status === 'trialing' || status === 'past_due';

export interface Subscription {
  readonly id: string;
  readonly userId: string;
  /** The provider's price id: the key of a configured plan. */
  readonly planId: string;
  readonly status: SubscriptionStatus;
  readonly currentPeriod: Period | null;
  readonly nextBillAt: Date | null;
  readonly cancelUrl: string | null;
  readonly updateUrl: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface Invoice {
  readonly id: string;
  readonly userId: string;
  readonly subscriptionId: string | null;
  readonly status: string;
  readonly number: string | null;
  /** In the currency's smallest unit, as a decimal string (no floating point for money). */
  readonly total: string;
  readonly currency: string;
  readonly billedAt: Date | null;
  readonly period: Period | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a provider's webhook event tells, once verified and read. */
export type BillingEvent = {
  readonly id: string;
  readonly type: string;
  readonly occurredAt: Date;
  /** The user the checkout was made for (custom data), when the event carries it. */
  readonly userId: string | null;
} & (
  | {
      readonly kind: 'subscription';
      readonly subscription: Omit<Subscription, 'userId' | 'createdAt' | 'updatedAt'>;
    }
  | { readonly kind: 'invoice'; readonly invoice: Omit<Invoice, 'userId' | 'createdAt' | 'updatedAt'> }
  | { readonly kind: 'other' }
);
