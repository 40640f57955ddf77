import {
  defineTrigger,
  deleteHook,
  dropdown,
  dynamicDropdown,
  hmacBase64,
  hookFields,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  segment,
} from '../sdk/index.js';
import { trelloAuth } from './auth.js';

type Delivery = { action?: { id?: string; type?: string }; model?: { id?: string } };

const ACTION_TYPES = [
  ['Card created', 'createCard'],
  ['Card changed (moved, renamed, due date...)', 'updateCard'],
  ['Comment added', 'commentCard'],
  ['Member added to a card', 'addMemberToCard'],
  ['Label added to a card', 'addLabelToCard'],
  ['Checklist item completed or changed', 'updateCheckItemStateOnCard'],
  ['Attachment added', 'addAttachmentToCard'],
  ['List created', 'createList'],
  ['List changed', 'updateList'],
] as const;

/**
 * Everything that happens on a board, as Trello's webhooks deliver it: registered for the flow's
 * address when it is published, deleted when it is not. Trello signs each delivery with the
 * Power-Up's secret: `X-Trello-Webhook`, the base64 HMAC-SHA1 of the raw body followed by the
 * callback URL as registered.
 */
export const newActivity = defineTrigger({
  key: 'newActivity',
  name: 'New activity (instant)',
  description: 'Starts the flow for each action on a board (a card created or moved, a comment...), or of one type.',
  type: 'webhook',
  arguments: {
    boardId: dynamicDropdown({ label: 'Board', required: true, dynamicData: 'listBoards' }),
    actionType: dropdown({
      label: 'Action type',
      description: 'Any action when empty.',
      options: ACTION_TYPES.map(([label, value]) => ({ label, value })),
    }),
  },
  async registerHook(ctx) {
    if (!trelloAuth.read(ctx.auth).apiSecret) {
      throw new Error("Trello's instant triggers need the Power-Up's secret in the connection, to check signatures.");
    }
    const { data } = await ctx.http.request<{ id: string }>({
      method: 'POST',
      path: '/webhooks',
      body: { callbackURL: ctx.webhookUrl, idModel: ctx.parameters.boardId, description: 'Conveyor flow' },
    });
    // Kept: its id, and the address Trello signs along with the body.
    return { id: data.id, callbackUrl: ctx.webhookUrl };
  },
  async unregisterHook(ctx) {
    const hook = hookFields(ctx.hook, 'id');
    if (hook) await deleteHook(ctx.http, { path: `/webhooks/${segment(hook.id)}` });
  },
  async run(ctx) {
    if (!ctx.webhook) return [];
    // Trello checks the address with a HEAD request before it creates the webhook.
    if (ctx.webhook.method === 'HEAD' || ctx.webhook.method === 'GET') return replyToWebhook({ status: 200 });
    const hook = hookFields(ctx.hook, 'id', 'callbackUrl');
    const secret = trelloAuth.read(ctx.auth).apiSecret;
    if (!hook || !secret) return refuseWebhook('No Trello webhook is registered for this flow.');
    const expected = hmacBase64('sha1', secret, ctx.webhook.rawBody + hook.callbackUrl);
    if (!safeEqual(ctx.webhook.headers['x-trello-webhook'] ?? '', expected)) return refuseWebhook();
    const { action } = ctx.webhook.body as Delivery;
    if (!action?.id || (ctx.parameters.actionType && action.type !== ctx.parameters.actionType)) return [];
    return [{ id: action.id, data: ctx.webhook.body }];
  },
});
