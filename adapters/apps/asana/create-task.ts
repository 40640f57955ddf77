import { dropdown, dynamicDropdown, dynamicMultiSelect, restAction, text } from '../sdk/index.js';
import { unwrap } from './api.js';
import { followerIds, listOrNothing, notesField, projectIn, workspaceId, yesNo } from './arguments.js';

/** Automatisch's arguments, key for key. */
export const createTask = restAction({
  key: 'createTask',
  name: 'Create task',
  description: 'Creates a task in a workspace, optionally in a project and section; outputs the task.',
  arguments: {
    workspaceId,
    projectId: projectIn(false),
    sectionId: dynamicDropdown({
      label: 'Section',
      dynamicData: 'listSections',
      dependsOn: ['projectId'],
      description: 'A section of the project chosen.',
      acceptsVariables: true,
    }),
    dueDateType: dropdown({
      label: 'Due date type',
      description: 'Date and time when empty.',
      options: [
        { label: 'Date & time', value: 'at' },
        { label: 'Date only', value: 'on' },
      ],
    }),
    dueDate: text({
      label: 'Due date',
      description: 'A date and time (2025-09-15T02:06:58.147Z), or a date (2025-09-15) with "Date only".',
      acceptsVariables: true,
    }),
    name: text({ label: 'Name', acceptsVariables: true }),
    description: text({ label: 'Description', description: 'HTML when it is rich text.', acceptsVariables: true }),
    richText: yesNo('Is the description rich text?'),
    taskCompleted: yesNo('Mark the task complete?'),
    taskLiked: yesNo('Like the task?'),
    assigneeId: dynamicDropdown({
      label: 'Assignee',
      dynamicData: 'listUsers',
      dependsOn: ['workspaceId'],
      acceptsVariables: true,
    }),
    followerIds,
    tagIds: dynamicMultiSelect({
      label: 'Tags',
      dynamicData: 'listTags',
      dependsOn: ['workspaceId'],
      rowKey: 'tagId',
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/tasks',
    body: {
      data: {
        workspace: p.workspaceId,
        name: p.name,
        ...notesField(p.description, p.richText),
        ...(p.dueDate && (p.dueDateType === 'on' ? { due_on: p.dueDate } : { due_at: p.dueDate })),
        completed: p.taskCompleted === undefined ? undefined : p.taskCompleted === 'true',
        liked: p.taskLiked === undefined ? undefined : p.taskLiked === 'true',
        assignee: p.assigneeId,
        followers: listOrNothing(p.followerIds),
        tags: listOrNothing(p.tagIds),
        projects: p.projectId && !p.sectionId ? [p.projectId] : undefined,
        // A section is set through the task's membership of its project.
        memberships: p.projectId && p.sectionId ? [{ project: p.projectId, section: p.sectionId }] : undefined,
      },
    },
  }),
  output: unwrap,
});
