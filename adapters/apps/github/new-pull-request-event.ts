import { randomBytes } from 'node:crypto';
import { defineTrigger, deleteHook, hmacHex, refuseWebhook, replyToWebhook, safeEqual } from '../sdk/index.js';
import { repoArgument, repoPath } from './repo.js';

/** What publishing keeps: GitHub's hook id, the secret deliveries are signed with, and where. */
interface Hook {
  readonly id: number;
  readonly secret: string;
  readonly repo: string;
}

export const newPullRequestEvent = defineTrigger({
  key: 'newPullRequestEvent',
  name: 'New pull request event',
  description:
    'Starts the flow at once for each pull request event (opened, edited, closed, merged...) of a repository.',
  type: 'webhook',
  arguments: { repo: repoArgument(true, false) },
  async registerHook(ctx) {
    // GitHub lets the hook's owner choose the secret it signs deliveries with.
    const secret = randomBytes(32).toString('hex');
    const { data } = await ctx.http.request<{ id: number }>({
      method: 'POST',
      path: `${repoPath(ctx.parameters.repo)}/hooks`,
      body: {
        name: 'web',
        active: true,
        events: ['pull_request'],
        config: { url: ctx.webhookUrl, content_type: 'json', secret, insecure_ssl: '0' },
      },
    });
    return { id: data.id, secret, repo: ctx.parameters.repo } satisfies Hook;
  },
  async unregisterHook(ctx) {
    const hook = ctx.hook as Hook;
    await deleteHook(ctx.http, { path: `${repoPath(hook.repo)}/hooks/${hook.id}` });
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    const hook = ctx.hook as Hook | null;
    if (!hook) return refuseWebhook('No GitHub hook is registered for this flow.');
    const expected = `sha256=${hmacHex('sha256', hook.secret, request.rawBody)}`;
    if (!safeEqual(request.headers['x-hub-signature-256'] ?? '', expected)) {
      return refuseWebhook('The X-Hub-Signature-256 header does not match the body.');
    }
    const event = request.headers['x-github-event'];
    // GitHub pings a hook once it is made: answered, no run.
    if (event === 'ping') return replyToWebhook({ status: 200, body: { ok: true } });
    if (event !== 'pull_request') return [];
    return [{ id: request.headers['x-github-delivery'], data: request.body }];
  },
});
