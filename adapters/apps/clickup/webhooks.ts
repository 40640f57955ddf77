import {
  type ArgumentMap,
  defineTrigger,
  deleteHook,
  dropdown,
  dynamicDropdown,
  hmacHex,
  hookFields,
  type InferParameters,
  refuseWebhook,
  safeEqual,
  segment,
} from '../sdk/index.js';
import { folderIn, listIn, spaceIn, workspaceId } from './arguments.js';

type Delivery = {
  event?: string;
  webhook_id?: string;
  task_id?: string;
  list_id?: string;
  folder_id?: string;
  history_items?: { id?: string }[];
};

type Scope = { workspaceId: string; spaceId?: string; folderId?: string; listId?: string; taskId?: string };

interface WebhookOptions<M extends ArgumentMap> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  events(parameters: InferParameters<M>): string[];
  /** What editing the trigger shows before any delivery came: an event of the kind. */
  readonly sample: Delivery;
}

/**
 * A ClickUp webhook: created for the flow's address in the workspace (narrowed to a space, folder,
 * list or task when chosen) on publish, deleted on unpublish. ClickUp signs each delivery with the
 * webhook's secret: `X-Signature`, the HMAC-SHA256 of the raw body in hex.
 */
const clickupWebhook = <const M extends ArgumentMap>(options: WebhookOptions<M>) =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'webhook',
    arguments: options.arguments,
    async registerHook(ctx) {
      const scope = ctx.parameters as unknown as Scope;
      const { data } = await ctx.http.request<{ id: string; webhook: { secret: string } }>({
        method: 'POST',
        path: `/team/${segment(scope.workspaceId)}/webhook`,
        body: {
          endpoint: ctx.webhookUrl,
          events: options.events(ctx.parameters),
          space_id: scope.spaceId,
          folder_id: scope.folderId,
          list_id: scope.listId,
          task_id: scope.taskId,
        },
      });
      // Kept: its id, to delete it, and the secret it signs with.
      return { id: data.id, secret: data.webhook.secret };
    },
    async unregisterHook(ctx) {
      const hook = hookFields(ctx.hook, 'id');
      if (hook) await deleteHook(ctx.http, { path: `/webhook/${segment(hook.id)}` });
    },
    async run(ctx) {
      if (!ctx.webhook) return [{ data: options.sample }];
      const hook = hookFields(ctx.hook, 'id', 'secret');
      if (!hook) return refuseWebhook('No ClickUp webhook is registered for this flow.');
      const signature = ctx.webhook.headers['x-signature'] ?? '';
      if (!safeEqual(signature, hmacHex('sha256', hook.secret, ctx.webhook.rawBody))) return refuseWebhook();
      const body = ctx.webhook.body as Delivery;
      // A change has its history item; ClickUp sends it again when a delivery fails.
      const change = body.history_items?.[0]?.id ?? body.task_id ?? body.list_id ?? body.folder_id;
      return [{ ...(change !== undefined && { id: `${body.event}:${change}` }), data: body }];
    },
  });

/** Automatisch's triggers and arguments. */
export const newFolder = clickupWebhook({
  key: 'newFolder',
  name: 'New folder',
  description: 'Starts the flow when a folder is created in a workspace, or in one of its spaces.',
  arguments: { workspaceId, spaceId: spaceIn(false) },
  events: () => ['folderCreated'],
  sample: { event: 'folderCreated', folder_id: '90180382912', webhook_id: 'sample' },
});

export const newLists = clickupWebhook({
  key: 'newLists',
  name: 'New lists',
  description: 'Starts the flow when a list is created in a workspace, space or folder.',
  arguments: { workspaceId, spaceId: spaceIn(false), folderId: folderIn(false) },
  events: () => ['listCreated'],
  sample: { event: 'listCreated', list_id: '901800588812', webhook_id: 'sample' },
});

export const newTasks = clickupWebhook({
  key: 'newTasks',
  name: 'New tasks',
  description: 'Starts the flow when a task is created in a workspace, space, folder or list, or under a task.',
  arguments: {
    workspaceId,
    spaceId: spaceIn(false),
    folderId: folderIn(false),
    listId: listIn(false),
    taskId: dynamicDropdown({
      label: 'Task',
      dynamicData: 'listTasks',
      dependsOn: ['listId'],
      description: 'Only its new subtasks start the flow when one is chosen.',
      acceptsVariables: true,
    }),
  },
  events: () => ['taskCreated'],
  sample: { event: 'taskCreated', task_id: '86enn7pg7', webhook_id: 'sample', history_items: [] },
});

export const updatedTask = clickupWebhook({
  key: 'updatedTask',
  name: 'Updated task',
  description: 'Starts the flow when a task changes, or only when what is chosen changes.',
  arguments: {
    workspaceId,
    spaceId: spaceIn(false),
    folderId: folderIn(false),
    listId: listIn(false),
    whatChanged: dropdown({
      label: 'What changed?',
      description: 'Any change when empty.',
      options: [
        { label: 'Status', value: 'taskStatusUpdated' },
        { label: 'Assignee added', value: 'taskAssigneeUpdated' },
        { label: 'Priority', value: 'taskPriorityUpdated' },
        { label: 'Tag added', value: 'taskTagUpdated' },
      ],
    }),
  },
  events: (p) => [p.whatChanged ?? 'taskUpdated'],
  sample: { event: 'taskUpdated', task_id: '86enn7pg7', webhook_id: 'sample', history_items: [] },
});
