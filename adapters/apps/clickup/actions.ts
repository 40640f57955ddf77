import { dropdown, dynamicDropdown, dynamicMultiSelect, restAction, segment, text } from '../sdk/index.js';
import { dateMessage, folderIn, listIn, millis, priority, spaceIn, workspaceId } from './arguments.js';

const dateText = (label: string) =>
  text({ label, description: 'Unix milliseconds, or an ISO 8601 date.', acceptsVariables: true, check: dateMessage });

/** Automatisch's arguments. */
export const createFolder = restAction({
  key: 'createFolder',
  name: 'Create folder',
  description: 'Creates a folder in a space; outputs the folder.',
  arguments: {
    workspaceId,
    spaceId: spaceIn(true),
    folderName: text({ label: 'Folder name', required: true, acceptsVariables: true }),
  },
  request: (p) => ({ method: 'POST', path: `/space/${segment(p.spaceId)}/folder`, body: { name: p.folderName } }),
});

/** Automatisch's arguments; without a folder, the list is made in the space. */
export const createList = restAction({
  key: 'createList',
  name: 'Create list',
  description: 'Creates a list in a folder, or in a space outside folders; outputs the list.',
  arguments: {
    workspaceId,
    spaceId: spaceIn(true),
    folderId: folderIn(false, 'The space itself, outside folders, when empty.'),
    listName: text({ label: 'List name', required: true, acceptsVariables: true }),
    listInfo: text({ label: 'List info', description: "The list's description.", acceptsVariables: true }),
    priority,
    dueDate: dateText('Due date'),
  },
  request: (p) => ({
    method: 'POST',
    path: p.folderId ? `/folder/${segment(p.folderId)}/list` : `/space/${segment(p.spaceId)}/list`,
    body: { name: p.listName, content: p.listInfo, priority: p.priority, due_date: millis(p.dueDate) },
  }),
});

/** Automatisch's arguments, key for key. */
export const createTask = restAction({
  key: 'createTask',
  name: 'Create task',
  description: 'Creates a task in a list; outputs the task.',
  arguments: {
    workspaceId,
    spaceId: spaceIn(true),
    folderId: folderIn(false, 'Leave empty for a list outside folders.'),
    listId: listIn(true),
    taskName: text({ label: 'Task name', required: true, acceptsVariables: true }),
    taskDescription: text({ label: 'Task description', acceptsVariables: true }),
    markdownContent: dropdown({
      label: 'Markdown content',
      description: 'Whether the description is Markdown.',
      options: [
        { label: 'False', value: 'false' },
        { label: 'True', value: 'true' },
      ],
    }),
    assigneeIds: dynamicMultiSelect({
      label: 'Assignees',
      dynamicData: 'listAssignees',
      dependsOn: ['listId'],
      rowKey: 'assigneeId',
    }),
    taskStatus: dynamicDropdown({
      label: 'Task status',
      dynamicData: 'listStatuses',
      dependsOn: ['listId'],
      acceptsVariables: true,
    }),
    tagIds: dynamicMultiSelect({ label: 'Tags', dynamicData: 'listTags', dependsOn: ['spaceId'], rowKey: 'tagId' }),
    priority,
    dueDate: dateText('Due date'),
    startDate: dateText('Start date'),
  },
  request: (p) => ({
    method: 'POST',
    path: `/list/${segment(p.listId)}/task`,
    body: {
      name: p.taskName,
      ...(p.markdownContent === 'true'
        ? { markdown_description: p.taskDescription }
        : { description: p.taskDescription }),
      assignees: p.assigneeIds && p.assigneeIds.length > 0 ? p.assigneeIds.map(Number) : undefined,
      status: p.taskStatus,
      tags: p.tagIds && p.tagIds.length > 0 ? p.tagIds : undefined,
      priority: p.priority,
      due_date: millis(p.dueDate),
      start_date: millis(p.startDate),
    },
  }),
});

const trueFalse = (label: string) =>
  dropdown({
    label,
    options: [
      { label: 'True', value: true },
      { label: 'False', value: false },
    ],
  });

/** Automatisch's arguments; with a custom id, its dynamic field `workspaceId` names the workspace. */
export const findTaskById = restAction({
  key: 'findTaskById',
  name: 'Find task by id',
  description: 'Reads a task by its id, or by its custom id in a workspace; outputs the task.',
  dynamicFieldsKey: 'listFieldsWhenUsingCustomId',
  arguments: {
    taskId: text({ label: 'Task ID', required: true, acceptsVariables: true }),
    useCustomId: trueFalse('Use custom ID'),
    includeSubtasks: trueFalse('Include subtasks?'),
  },
  request: (p, ctx) => {
    const workspace = (ctx.parameters as { workspaceId?: unknown }).workspaceId;
    return {
      path: `/task/${segment(p.taskId)}`,
      query: {
        custom_task_ids: p.useCustomId === true ? true : undefined,
        team_id: p.useCustomId === true && typeof workspace === 'string' ? workspace : undefined,
        include_subtasks: p.includeSubtasks,
      },
    };
  },
});
