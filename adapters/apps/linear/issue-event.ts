import { randomBytes } from 'node:crypto';
import { defineTrigger, hmacHex, refuseWebhook, safeEqual } from '../sdk/index.js';
import { teamArgument } from './arguments.js';
import { LinearError, linearGraphql } from './graphql.js';

/** What publishing keeps: Linear's webhook id and the secret it signs deliveries with. */
interface Hook {
  readonly id: string;
  readonly secret: string;
}

/** Linear asks receivers to refuse deliveries whose `webhookTimestamp` is more than a minute away. */
const FRESHNESS_MS = 60_000;

export const issueEvent = defineTrigger({
  key: 'issueEvent',
  name: 'Issue event',
  description: 'Starts the flow at once when an issue is created, updated or removed (in a team, or all public teams).',
  type: 'webhook',
  arguments: { teamId: teamArgument(false) },
  async registerHook(ctx) {
    // Linear takes the signing secret from whoever makes the webhook.
    const secret = randomBytes(32).toString('hex');
    const team = ctx.parameters.teamId ? { teamId: ctx.parameters.teamId } : { allPublicTeams: true };
    const { webhookCreate } = await linearGraphql<{ webhookCreate: { success: boolean; webhook?: { id: string } } }>(
      ctx,
      'mutation($input: WebhookCreateInput!) { webhookCreate(input: $input) { success webhook { id enabled } } }',
      { input: { url: ctx.webhookUrl, resourceTypes: ['Issue'], label: 'Conveyor', secret, ...team } },
    );
    if (!webhookCreate.success || !webhookCreate.webhook) throw new Error('Linear: webhookCreate did not succeed.');
    return { id: webhookCreate.webhook.id, secret } satisfies Hook;
  },
  async unregisterHook(ctx) {
    const hook = ctx.hook as Hook;
    try {
      await linearGraphql(ctx, 'mutation($id: String!) { webhookDelete(id: $id) { success } }', { id: hook.id });
    } catch (error) {
      // Already deleted in Linear: nothing is left to remove.
      if (!(error instanceof LinearError && error.messages.some((m) => m.startsWith('Entity not found')))) throw error;
    }
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    const hook = ctx.hook as Hook | null;
    if (!hook) return refuseWebhook('No Linear webhook is registered for this flow.');
    if (!safeEqual(request.headers['linear-signature'] ?? '', hmacHex('sha256', hook.secret, request.rawBody))) {
      return refuseWebhook('The Linear-Signature header does not match the body.');
    }
    const body = request.body as { type?: string; webhookTimestamp?: number } | null;
    if (!body || !(Math.abs(Date.now() - Number(body.webhookTimestamp)) <= FRESHNESS_MS)) {
      return refuseWebhook('The delivery is more than a minute old (webhookTimestamp).');
    }
    if (body.type !== 'Issue') return [];
    const delivery = request.headers['linear-delivery'];
    return [{ ...(delivery && { id: delivery }), data: body }];
  },
});
