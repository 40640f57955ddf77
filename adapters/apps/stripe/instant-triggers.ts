import {
  type ArgumentMap,
  defineTrigger,
  dynamicMultiSelect,
  type InferParameters,
  refuseWebhook,
  segment,
  type TriggerItem,
} from '../sdk/index.js';
import { stripeForm } from './form.js';
import { verifyStripeSignature } from './webhook-signature.js';

/** What registering keeps: the endpoint Stripe made, and the signing secret it answered once. */
interface StripeHook {
  readonly id: string;
  readonly secret: string;
}

interface StripeEvent {
  readonly id: string;
  readonly type: string;
  readonly data: { readonly object: Record<string, unknown> };
}

/**
 * A trigger that registers a webhook endpoint with Stripe for some events when its flow is
 * published, and removes it when unpublished. Each delivery is checked against the endpoint's
 * signing secret; the event's id is the run's id, so that a redelivered event starts no second run.
 */
const stripeWebhookTrigger = <const M extends ArgumentMap>(options: {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  readonly events: (parameters: InferParameters<M>) => readonly string[];
  readonly output: (event: StripeEvent) => unknown;
}) =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'webhook',
    arguments: options.arguments,
    async registerHook(ctx) {
      const { data } = await ctx.http.request<{ id: string; secret: string }>({
        method: 'POST',
        path: '/v1/webhook_endpoints',
        body: stripeForm({
          url: ctx.webhookUrl,
          enabled_events: [...options.events(ctx.parameters)],
          description: `Conveyor: ${options.name}`,
        }),
      });
      return { id: data.id, secret: data.secret } satisfies StripeHook;
    },
    async unregisterHook(ctx) {
      const hook = ctx.hook as StripeHook;
      await ctx.http.request({ method: 'DELETE', path: `/v1/webhook_endpoints/${segment(hook.id)}` });
    },
    async run(ctx): Promise<TriggerItem[]> {
      const request = ctx.webhook;
      if (!request) return [];
      const hook = ctx.hook as StripeHook | null;
      if (!hook?.secret) return refuseWebhook('No Stripe webhook endpoint is registered for this flow.');
      verifyStripeSignature(request.headers['stripe-signature'], request.rawBody, hook.secret);
      const event = request.body as StripeEvent;
      return [{ id: event.id, data: options.output(event) }];
    },
  });

export const paymentIntentSucceeded = stripeWebhookTrigger({
  key: 'paymentIntentSucceeded',
  name: 'Payment succeeded',
  description: 'Starts the flow at once with each payment intent that succeeds (the `payment_intent.succeeded` event).',
  arguments: {},
  events: () => ['payment_intent.succeeded'],
  // The payment intent itself, as the polling triggers hand on objects.
  output: (event) => event.data.object,
});

export const newEvent = stripeWebhookTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Starts the flow at once with each Stripe event of the chosen types.',
  arguments: {
    events: dynamicMultiSelect({ label: 'Events', required: true, dynamicData: 'listEventTypes' }),
  },
  events: (p) => (p.events.length > 0 ? p.events : ['*']),
  // The whole event: its `type` says what happened, `data.object` to what.
  output: (event) => event,
});
