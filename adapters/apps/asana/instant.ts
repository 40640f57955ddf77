import {
  defineTrigger,
  deleteHook,
  dropdown,
  hmacHex,
  hookFields,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  segment,
} from '../sdk/index.js';
import { projectIn, workspaceId } from './arguments.js';

/** Where the handshake's secret waits, in the flow's store, for the registration it belongs to. */
const HANDSHAKE_KEY = 'asana:hookSecret';

type Event = {
  action?: string;
  created_at?: string;
  resource?: { gid?: string; resource_type?: string };
  change?: { field?: string };
};

/**
 * Asana's webhooks on a project's tasks. Creating one, Asana first posts an `X-Hook-Secret` to the
 * flow's address and wants it echoed: the trigger answers it and keeps it in the flow's store,
 * where the registration, once Asana confirms, takes it into the hook. Deliveries then carry
 * `X-Hook-Signature`, the HMAC-SHA256 of the raw body in hex under that secret; each holds a
 * list of events (none in a heartbeat).
 */
export const newTaskEvent = defineTrigger({
  key: 'newTaskEvent',
  name: 'Task event (instant)',
  description: 'Starts the flow when a task of a project is added, changed, removed, deleted or restored.',
  type: 'webhook',
  arguments: {
    workspaceId,
    projectId: projectIn(true),
    action: dropdown({
      label: 'Event',
      required: true,
      default: 'added',
      options: [
        { label: 'Task added', value: 'added' },
        { label: 'Task changed', value: 'changed' },
        { label: 'Task removed from the project', value: 'removed' },
        { label: 'Task deleted', value: 'deleted' },
        { label: 'Task restored', value: 'undeleted' },
      ],
    }),
  },
  async registerHook(ctx) {
    await ctx.store.set(HANDSHAKE_KEY, null);
    const { data } = await ctx.http.request<{ data: { gid: string } }>({
      method: 'POST',
      path: '/webhooks',
      body: {
        data: {
          resource: ctx.parameters.projectId,
          target: ctx.webhookUrl,
          filters: [{ resource_type: 'task', action: ctx.parameters.action }],
        },
      },
    });
    // Asana answers only once the handshake succeeded: its secret is in the store by now.
    const secret = await ctx.store.get(HANDSHAKE_KEY);
    if (typeof secret !== 'string' || secret === '') {
      throw new Error('Asana created the webhook without the handshake reaching this flow.');
    }
    // From now on the secret lives in the hook's state only.
    await ctx.store.set(HANDSHAKE_KEY, null);
    // Kept: its gid, and the secret its handshake gave.
    return { id: data.data.gid, secret };
  },
  async unregisterHook(ctx) {
    const hook = hookFields(ctx.hook, 'id');
    if (hook) await deleteHook(ctx.http, { path: `/webhooks/${segment(hook.id)}` });
  },
  async run(ctx) {
    if (!ctx.webhook) return [];
    const hook = hookFields(ctx.hook, 'id', 'secret');
    const handshake = ctx.webhook.headers['x-hook-secret'];
    if (handshake !== undefined) {
      // A registered hook has its secret: a second handshake would only be someone else's.
      if (hook) return refuseWebhook('This flow already has an Asana webhook.');
      await ctx.store.set(HANDSHAKE_KEY, handshake);
      return replyToWebhook({ status: 200, headers: { 'X-Hook-Secret': handshake } });
    }
    if (!hook) return refuseWebhook('No Asana webhook is registered for this flow.');
    const expected = hmacHex('sha256', hook.secret, ctx.webhook.rawBody);
    if (!safeEqual(ctx.webhook.headers['x-hook-signature'] ?? '', expected)) return refuseWebhook();
    const { events = [] } = ctx.webhook.body as { events?: Event[] };
    return events.map((event) => ({
      id: [event.resource?.gid, event.action, event.change?.field ?? '', event.created_at].join(':'),
      data: event,
    }));
  },
});
