import type { Repositories } from '../../../ports/repositories.js';
import {
  calendarMonth,
  grantsPlan,
  isOverQuota,
  type Plan,
  type PlanAndUsage,
  SELF_HOSTED_PLAN,
  type Subscription,
} from '../../domain/billing.js';
import type { CoreDeps } from '../deps.js';

type Deps = Pick<CoreDeps, 'repos' | 'clock' | 'settings' | 'logger'>;

/** How long a user's quota verdict is reused by intake and triggers before it is read again. */
export const QUOTA_CACHE_MS = 5_000;

/** The subscription that decides the user's plan: the latest one whose state grants its plan. */
export const currentSubscription = (subscriptions: readonly Subscription[]): Subscription | null =>
  subscriptions.find((s) => grantsPlan(s.status)) ?? null;

/**
 * Plans and usage as one service, built once per process: the webhook intake and the triggers ask
 * "may this user's flows run?" for every request, so the answer is cached per user for a few
 * seconds (a quota is a monthly budget; a few seconds of lag cost a few runs at most).
 */
export const makeBilling = (deps: Deps) => {
  const { repos, clock, settings, logger } = deps;
  const billing = settings.billing;

  const planOf = (subscription: Subscription | null): Plan => {
    if (!billing) return SELF_HOSTED_PLAN;
    if (!subscription) return billing.freePlan;
    const plan = billing.plans.find((p) => p.id === subscription.planId);
    if (!plan) {
      logger.warn({ subscriptionId: subscription.id, planId: subscription.planId }, 'subscription to an unknown plan');
      return billing.freePlan;
    }
    return plan;
  };

  /** `through`: the repositories to read with, a transaction's when asked inside one. */
  const planAndUsage = async (userId: string, through: Repositories = repos): Promise<PlanAndUsage> => {
    const now = clock.now();
    const subscription = billing ? currentSubscription(await through.subscriptions.listByUser(userId)) : null;
    const plan = planOf(subscription);
    const ownPeriod = subscription?.currentPeriod;
    // A paid period that has run out (the renewal's event is late) gives way to the calendar month.
    const period = ownPeriod && ownPeriod.start <= now && now < ownPeriod.end ? ownPeriod : calendarMonth(now);
    return { plan, period, tasks: await through.usage.countTasks(userId, period) };
  };

  const verdicts = new Map<string, { readonly over: boolean; readonly until: number }>();

  /** False when billing is on and the user has used up the plan's tasks for the period. */
  const mayRun = async (userId: string, through: Repositories = repos): Promise<boolean> => {
    if (!billing) return true;
    const now = clock.now().getTime();
    const cached = verdicts.get(userId);
    if (cached && cached.until > now) return !cached.over;
    const over = isOverQuota(await planAndUsage(userId, through));
    if (verdicts.size > 10_000) verdicts.clear();
    verdicts.set(userId, { over, until: now + QUOTA_CACHE_MS });
    return !over;
  };

  return {
    enabled: billing !== null,
    plans: billing?.plans ?? [],
    planAndUsage,
    mayRun,
    /** A subscription event changed what the user may do: forget the cached verdict. */
    forget: (userId: string) => verdicts.delete(userId),
  };
};

export type Billing = ReturnType<typeof makeBilling>;
