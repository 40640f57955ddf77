import { randomBytes } from 'node:crypto';
import { errorMessage } from '../../../core/domain/errors.js';
import {
  type ArgumentMap,
  defineTrigger,
  HttpError,
  type InferParameters,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  segment,
  type TriggerContext,
  type TriggerDefinition,
  type TriggerItem,
} from '../sdk/index.js';

/** What a flow keeps of its Graph subscription: its id, and the secret every notification carries. */
export interface GraphSubscriptionHook {
  readonly id: string;
  readonly clientState: string;
}

/** One entry of a change notification collection (a change, or a lifecycle event). */
interface ChangeNotification {
  readonly subscriptionId?: string;
  readonly clientState?: string;
  readonly changeType?: string;
  readonly resourceData?: { readonly id?: string };
  readonly subscriptionExpirationDateTime?: string;
  readonly lifecycleEvent?: string;
}

export interface GraphNotificationTriggerOptions<M extends ArgumentMap> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  /** The Graph resource to watch (`me/mailFolders('inbox')/messages`), from the step's parameters. */
  resource(parameters: InferParameters<M>): string;
  /** `created` or `updated` (Graph's changeType): each notification starts a run with the entry read again. */
  readonly changeType: 'created' | 'updated';
  /** How long a subscription is asked for, in minutes: under the resource's maximum lifetime. */
  readonly lifetimeMinutes: number;
  /** Where an entry named by a notification is read, from its id. */
  entry(id: string, parameters: InferParameters<M>): string;
  /** Which entries start runs (Teams' system messages do not); all by default. */
  accept?(entry: any): boolean;
}

/** Entries read at once for one delivery. */
const PARALLEL_READS = 5;

const expiry = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

const hookOf = (value: unknown): GraphSubscriptionHook | null => {
  const hook = value as Partial<GraphSubscriptionHook> | null;
  return typeof hook?.id === 'string' && typeof hook.clientState === 'string'
    ? { id: hook.id, clientState: hook.clientState }
    : null;
};

const notificationsOf = (body: unknown): readonly ChangeNotification[] => {
  const value = typeof body === 'object' && body !== null ? (body as { value?: unknown }).value : null;
  return Array.isArray(value) ? (value as ChangeNotification[]) : [];
};

/** Whether Graph sent it for this flow's subscription: only Graph and the flow know the clientState. */
const isOurs = (notification: ChangeNotification, hook: GraphSubscriptionHook) =>
  notification.subscriptionId === hook.id && safeEqual(notification.clientState ?? '', hook.clientState);

/**
 * Keeps the subscription alive: Graph asks for it (`reauthorizationRequired`, which it sends as the
 * subscription nears its end), or a notification shows it past half its life. Renewing is best
 * effort: a failure is logged, and the notification is still handled.
 */
const renewWhenDue = async (
  ctx: TriggerContext<unknown>,
  hook: GraphSubscriptionHook,
  notifications: readonly ChangeNotification[],
  lifetimeMinutes: number,
) => {
  const halfLife = Date.parse(expiry(lifetimeMinutes / 2));
  for (const notification of notifications) {
    if (notification.lifecycleEvent === 'subscriptionRemoved' || notification.lifecycleEvent === 'missed') {
      ctx.log.warn(
        { subscription: hook.id, event: notification.lifecycleEvent },
        'Microsoft Graph reports lost notifications; publish the flow again to subscribe anew',
      );
    }
  }
  const due = notifications.some(
    (notification) =>
      notification.lifecycleEvent === 'reauthorizationRequired' ||
      Date.parse(notification.subscriptionExpirationDateTime ?? '') < halfLife,
  );
  if (!due) return;
  try {
    await ctx.http.request({
      method: 'PATCH',
      path: `/subscriptions/${segment(hook.id)}`,
      body: { expirationDateTime: expiry(lifetimeMinutes) },
    });
    ctx.log.info({ subscription: hook.id }, 'Microsoft Graph subscription renewed');
  } catch (error) {
    ctx.log.warn({ subscription: hook.id, reason: errorMessage(error) }, 'Microsoft Graph subscription not renewed');
  }
};

/** The entry a notification names, as Graph answers it now; null when it starts no run. */
const readEntry = async <M extends ArgumentMap>(
  ctx: TriggerContext<InferParameters<M>>,
  options: GraphNotificationTriggerOptions<M>,
  id: string,
): Promise<TriggerItem | null> => {
  try {
    const { data } = await ctx.http.request({ path: options.entry(id, ctx.parameters) });
    return options.accept && !options.accept(data) ? null : { id, data };
  } catch (error) {
    // Gone before it could be read (deleted, moved): nothing to run for.
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
};

/**
 * An instant trigger over Graph change notifications. Publishing the flow subscribes its address
 * (`POST /subscriptions`, with a random clientState; Graph first checks the address with a
 * `validationToken`, which the trigger echoes), unpublishing deletes the subscription. Each
 * notification must carry the subscription's id and clientState; the entry it names is read
 * from Graph, so that runs get the whole entry. The subscription is renewed as Graph asks
 * (lifecycle notifications go to the same address) and whenever a notification finds it past
 * half its life.
 */
export const graphNotificationTrigger = <const M extends ArgumentMap>(
  options: GraphNotificationTriggerOptions<M>,
): TriggerDefinition<M, never> =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'webhook',
    arguments: options.arguments,
    async registerHook(ctx) {
      const clientState = randomBytes(32).toString('base64url');
      const { data } = await ctx.http.request<{ id?: unknown }>({
        method: 'POST',
        path: '/subscriptions',
        body: {
          changeType: options.changeType,
          notificationUrl: ctx.webhookUrl,
          lifecycleNotificationUrl: ctx.webhookUrl,
          resource: options.resource(ctx.parameters),
          expirationDateTime: expiry(options.lifetimeMinutes),
          clientState,
        },
      });
      if (typeof data.id !== 'string') throw new Error('Microsoft Graph answered the subscription without its id.');
      return { id: data.id, clientState } satisfies GraphSubscriptionHook;
    },
    async unregisterHook(ctx) {
      const hook = hookOf(ctx.hook);
      if (hook) await ctx.http.request({ method: 'DELETE', path: `/subscriptions/${segment(hook.id)}` });
    },
    async run(ctx) {
      const request = ctx.webhook;
      if (!request) return [];
      // Graph checks the address before it creates (or moves) a subscription: the token, as text, within 10 s.
      const { validationToken } = request.query;
      if (typeof validationToken === 'string') {
        return replyToWebhook({
          status: 200,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
          body: validationToken,
        });
      }
      const hook = hookOf(ctx.hook);
      if (!hook) return refuseWebhook('No Microsoft Graph subscription is registered for this flow.');
      const notifications = notificationsOf(request.body);
      if (notifications.length === 0 || !notifications.every((notification) => isOurs(notification, hook))) {
        return refuseWebhook("The notification does not carry this flow's subscription and clientState.");
      }
      await renewWhenDue(ctx, hook, notifications, options.lifetimeMinutes);
      const ids = notifications.flatMap((notification) =>
        !notification.lifecycleEvent && notification.changeType === options.changeType && notification.resourceData?.id
          ? [notification.resourceData.id]
          : [],
      );
      const items: (TriggerItem | null)[] = [];
      // A few reads at a time: Graph wants its answer within seconds, and throttles bursts.
      const unique = [...new Set(ids)];
      for (let start = 0; start < unique.length; start += PARALLEL_READS) {
        const batch = unique.slice(start, start + PARALLEL_READS);
        items.push(...(await Promise.all(batch.map((id) => readEntry(ctx, options, id)))));
      }
      return items.filter((item): item is TriggerItem => item !== null);
    },
  });
