import { randomBytes } from 'node:crypto';
import { defineTrigger, refuseWebhook, replyToWebhook, safeEqual, segment } from '../sdk/index.js';
import { audienceId } from './arguments.js';

/** The flow's Mailchimp webhook: its audience and id, and the key its address carries. */
interface Hook {
  readonly audienceId: string;
  readonly id: string;
  readonly key: string;
}

const isHook = (value: unknown): value is Hook =>
  typeof value === 'object' &&
  value !== null &&
  ['audienceId', 'id', 'key'].every((name) => typeof (value as Record<string, unknown>)[name] === 'string');

/** Mailchimp signs nothing: its docs advise a secret in the address, which it calls back as given. */
const KEY_PARAM = 'conveyor_key';

type Nested = { [name: string]: string | Nested };

/** Names that would reach an object's prototype rather than a field of it. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/** Mailchimp posts a form with bracketed names (`data[merges][FNAME]`): rebuilt as objects. */
export const nestedForm = (raw: string): Nested => {
  const root: Nested = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const path = name.split(/\]?\[|\]$/).filter((part) => part !== '');
    if (path.length === 0 || path.some((part) => UNSAFE.has(part))) continue;
    let node = root;
    for (const part of path.slice(0, -1)) {
      const next = Object.hasOwn(node, part) ? node[part] : undefined;
      const child: Nested = typeof next === 'object' ? next : {};
      node[part] = child;
      node = child;
    }
    node[path.at(-1) as string] = value;
  }
  return root;
};

/** A trigger on one kind of audience event, registered as a webhook of the audience. */
const audienceEvent = (key: string, name: string, description: string, event: 'subscribe' | 'unsubscribe') =>
  defineTrigger({
    key,
    name,
    description,
    type: 'webhook',
    arguments: { audienceId },
    async registerHook(ctx) {
      const hookKey = randomBytes(24).toString('hex');
      const url = new URL(ctx.webhookUrl);
      url.searchParams.set(KEY_PARAM, hookKey);
      const { data } = await ctx.http.request<{ id: string }>({
        method: 'POST',
        path: `/lists/${segment(ctx.parameters.audienceId)}/webhooks`,
        body: { url: url.toString(), events: { [event]: true }, sources: { user: true, admin: true, api: true } },
      });
      return { audienceId: ctx.parameters.audienceId, id: data.id, key: hookKey } satisfies Hook;
    },
    async unregisterHook(ctx) {
      if (!isHook(ctx.hook)) return;
      await ctx.http.request({
        method: 'DELETE',
        path: `/lists/${segment(ctx.hook.audienceId)}/webhooks/${segment(ctx.hook.id)}`,
      });
    },
    async run(ctx) {
      const request = ctx.webhook;
      if (!request) return [];
      // Mailchimp checks the address with a GET when the webhook is made (before the flow keeps
      // the hook): it needs a 200, and starts nothing.
      if (request.method === 'GET') return replyToWebhook({ status: 200 });
      if (!isHook(ctx.hook)) return refuseWebhook('No Mailchimp webhook is registered for this flow.');
      const given = request.query[KEY_PARAM];
      if (!safeEqual(typeof given === 'string' ? given : '', ctx.hook.key)) {
        return refuseWebhook(`The address's ${KEY_PARAM} is not this flow's.`);
      }
      const payload = nestedForm(request.rawBody);
      if (payload.type !== event) return [];
      const data = typeof payload.data === 'object' ? payload.data : {};
      return [
        { id: `${event}:${String(data.id ?? data.email ?? '')}:${String(payload.fired_at ?? '')}`, data: payload },
      ];
    },
  });

export const newSubscribers = audienceEvent(
  'newSubscribers',
  'New subscribers',
  'Starts the flow when someone subscribes to an audience.',
  'subscribe',
);

export const newUnsubscribers = audienceEvent(
  'newUnsubscribers',
  'New unsubscribers',
  'Starts the flow when a subscriber leaves an audience.',
  'unsubscribe',
);
