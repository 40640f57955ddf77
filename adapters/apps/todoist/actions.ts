import { dropdown, dynamicDropdown, restAction, segment, text } from '../sdk/index.js';

/** Labels as Automatisch takes them: names separated by commas. */
const labelList = (labels: string | undefined) => {
  const names = (labels ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? names : undefined;
};

/** Automatisch's arguments, with `priority` and `dueString` added. */
export const createTask = restAction({
  key: 'createTask',
  name: 'Create task',
  description: 'Adds a task, to the Inbox or to a project and section; outputs the task.',
  arguments: {
    projectId: dynamicDropdown({
      label: 'Project',
      dynamicData: 'listProjects',
      description: 'The Inbox when empty.',
      acceptsVariables: true,
    }),
    sectionId: dynamicDropdown({
      label: 'Section',
      dynamicData: 'listSections',
      dependsOn: ['projectId'],
      acceptsVariables: true,
    }),
    labels: text({
      label: 'Labels',
      description: 'Label names, separated by commas: work,imported.',
      acceptsVariables: true,
    }),
    content: text({
      label: 'Content',
      required: true,
      description: 'The task, Markdown allowed.',
      acceptsVariables: true,
    }),
    description: text({ label: 'Description', description: 'Markdown allowed.', acceptsVariables: true }),
    priority: dropdown({
      label: 'Priority',
      options: [
        { label: 'Priority 1 (urgent)', value: 4 },
        { label: 'Priority 2', value: 3 },
        { label: 'Priority 3', value: 2 },
        { label: 'Priority 4 (normal)', value: 1 },
      ],
    }),
    dueString: text({
      label: 'Due',
      description: 'In words Todoist reads: "tomorrow at 9", "every monday".',
      acceptsVariables: true,
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/tasks',
    body: {
      content: p.content,
      description: p.description,
      project_id: p.projectId,
      section_id: p.sectionId,
      labels: labelList(p.labels),
      priority: p.priority,
      due_string: p.dueString,
    },
  }),
});

export const closeTask = restAction({
  key: 'closeTask',
  name: 'Complete task',
  description: 'Marks a task done (a recurring one moves to its next date); outputs the task id.',
  arguments: { taskId: text({ label: 'Task ID', required: true, acceptsVariables: true }) },
  request: (p) => ({ method: 'POST', path: `/tasks/${segment(p.taskId)}/close` }),
  // Todoist answers 204 without a body.
  output: (_data, p) => ({ id: p.taskId, completed: true }),
});
