import { randomBytes } from 'node:crypto';
import {
  type ArgumentMapOf,
  defineTrigger,
  deleteHook,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  type TriggerDefinition,
} from '../sdk/index.js';
import { projectArgument, projectPath } from './project.js';

/** What publishing keeps: GitLab's hook id, the token its deliveries carry, and the project. */
interface Hook {
  readonly id: number;
  readonly token: string;
  readonly projectId: string;
}

export interface ProjectHookOptions {
  /** Automatisch's key, which is GitLab's name of the hook's event switch (`issues_events`). */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** GitLab's `X-Gitlab-Event` for these deliveries (`Issue Hook`). */
  readonly header: string;
  readonly arguments?: ArgumentMapOf<never>;
  /** More settings of the hook, from the step's parameters (a branch filter). */
  hookSettings?(parameters: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>;
}

/**
 * An instant trigger on a GitLab project webhook for one event. GitLab does not sign deliveries:
 * it sends the secret token the hook was made with in `X-Gitlab-Token`, compared here in constant time.
 */
export const projectHookTrigger = (
  options: ProjectHookOptions,
): TriggerDefinition<ArgumentMapOf<'listProjects'>, never> =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'webhook',
    arguments: { projectId: projectArgument(false), ...options.arguments },
    async registerHook(ctx) {
      const token = randomBytes(32).toString('hex');
      const { projectId } = ctx.parameters as { projectId: string };
      const { data } = await ctx.http.request<{ id: number }>({
        method: 'POST',
        path: `${projectPath(projectId)}/hooks`,
        body: {
          url: ctx.webhookUrl,
          token,
          enable_ssl_verification: true,
          // GitLab turns push events on unless told otherwise.
          push_events: options.key === 'push_events',
          [options.key]: true,
          ...options.hookSettings?.(ctx.parameters),
        },
      });
      return { id: data.id, token, projectId } satisfies Hook;
    },
    async unregisterHook(ctx) {
      const hook = ctx.hook as Hook;
      await deleteHook(ctx.http, { path: `${projectPath(hook.projectId)}/hooks/${hook.id}` });
    },
    async run(ctx) {
      const request = ctx.webhook;
      if (!request) return [];
      const hook = ctx.hook as Hook | null;
      if (!hook) return refuseWebhook('No GitLab hook is registered for this flow.');
      if (!safeEqual(request.headers['x-gitlab-token'] ?? '', hook.token)) {
        return refuseWebhook('The X-Gitlab-Token header is not the hook’s token.');
      }
      // "Test" in GitLab's hook settings sends a sample of another event: answered, no run.
      if (request.headers['x-gitlab-event'] !== options.header)
        return replyToWebhook({ status: 200, body: { ok: true } });
      const uuid = request.headers['x-gitlab-event-uuid'];
      return [{ ...(uuid && { id: uuid }), data: request.body }];
    },
  });
