import { randomBytes } from 'node:crypto';
import { defineTrigger, dropdown, hookFields, refuseWebhook, replyToWebhook, safeEqual } from '../sdk/index.js';
import { boardId } from './board-actions.js';
import { mondayQuery } from './graphql.js';

/** The token of a registration under way, in the flow's store, for monday's challenge to match. */
const PENDING_KEY = 'monday:pendingToken';

const withToken = (url: string, token: string) => {
  const address = new URL(url);
  address.searchParams.set('token', token);
  return address.toString();
};

type Delivery = { challenge?: string; event?: { triggerUuid?: string; type?: string } };

export const newBoardEvent = defineTrigger({
  key: 'newBoardEvent',
  name: 'Board event (instant)',
  description:
    'Starts the flow when an item is created, a column or status changes, or an update is posted on a board.',
  type: 'webhook',
  arguments: {
    boardId,
    event: dropdown({
      label: 'Event',
      required: true,
      default: 'create_item',
      options: [
        { label: 'Item created', value: 'create_item' },
        { label: 'Column value changed', value: 'change_column_value' },
        { label: 'Status changed', value: 'change_status_column_value' },
        { label: 'Update posted', value: 'create_update' },
        { label: 'Item moved to a group', value: 'item_moved_to_any_group' },
        { label: 'Item archived', value: 'item_archived' },
      ],
    }),
  },
  async registerHook(ctx) {
    const token = randomBytes(24).toString('base64url');
    await ctx.store.set(PENDING_KEY, token);
    const { create_webhook } = await mondayQuery<{ create_webhook: { id: string } }>(
      ctx.http,
      'mutation ($board: ID!, $url: String!, $event: WebhookEventType!) { create_webhook(board_id: $board, url: $url, event: $event) { id board_id } }',
      { board: ctx.parameters.boardId, url: withToken(ctx.webhookUrl, token), event: ctx.parameters.event },
    );
    await ctx.store.set(PENDING_KEY, null);
    // Kept: its id, and the token its address carries. monday signs no delivery of a webhook made
    // with a personal token, so the address holds a random token of the flow's own.
    return { id: String(create_webhook.id), token };
  },
  async unregisterHook(ctx) {
    const hook = hookFields(ctx.hook, 'id');
    if (!hook) return;
    await mondayQuery(ctx.http, 'mutation ($id: ID!) { delete_webhook(id: $id) { id } }', { id: hook.id });
  },
  async run(ctx) {
    if (!ctx.webhook) return [];
    const hook = hookFields(ctx.hook, 'id', 'token');
    const expected = hook?.token ?? (await ctx.store.get(PENDING_KEY));
    const given = ctx.webhook.query.token;
    if (typeof expected !== 'string' || typeof given !== 'string' || !safeEqual(given, expected)) {
      return refuseWebhook("The delivery does not carry the token of this flow's monday webhook.");
    }
    const body = ctx.webhook.body as Delivery;
    // monday checks a new webhook's address by wanting its challenge back.
    if (body.challenge !== undefined) return replyToWebhook({ status: 200, body: { challenge: body.challenge } });
    if (!hook || !body.event) return [];
    return [{ ...(body.event.triggerUuid && { id: body.event.triggerUuid }), data: body.event }];
  },
});
