import { defineTrigger, dynamicDropdown, paginate, text } from '../sdk/index.js';
import { byCursor } from './dynamic-data.js';

type Task = { id: string; added_at?: string | null; completed_at?: string | null };

const projectId = dynamicDropdown({ label: 'Project', dynamicData: 'listProjects' });

const byLatest = (at: (task: Task) => string | null | undefined) => (a: Task, b: Task) =>
  (at(b) ?? '').localeCompare(at(a) ?? '');

/**
 * Automatisch's trigger: every active task matching the choices, newest first by when it was
 * added, so the engine starts a run for each task it has not seen. A filter query wins over the
 * project, section and label (Todoist's filter endpoint takes only the query).
 */
export const getActiveTasks = defineTrigger({
  key: 'getActiveTasks',
  name: 'Get active tasks',
  description: 'Starts the flow for each new active task, in a project, section or label, or matching a filter.',
  type: 'polling',
  arguments: {
    projectId,
    sectionId: dynamicDropdown({ label: 'Section', dynamicData: 'listSections', dependsOn: ['projectId'] }),
    label: dynamicDropdown({ label: 'Label', dynamicData: 'listLabels' }),
    filter: text({ label: 'Filter', description: 'A Todoist filter query, e.g. "today & p1".' }),
  },
  async run(ctx) {
    const { projectId: project, sectionId, label, filter } = ctx.parameters;
    const query = filter?.trim()
      ? { path: '/tasks/filter', query: { query: filter.trim(), limit: 200 } }
      : { path: '/tasks', query: { project_id: project, section_id: sectionId, label, limit: 200 } };
    const tasks = await paginate<Task>(ctx.http, query, byCursor);
    return tasks.sort(byLatest((task) => task.added_at)).map((task) => ({ id: task.id, data: task }));
  },
});

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Tasks completed in the last week (Todoist wants a window), newest first by completion. */
export const newCompletedTask = defineTrigger({
  key: 'newCompletedTask',
  name: 'New completed task',
  description: 'Starts the flow each time a task is completed, in any project or in the one chosen.',
  type: 'polling',
  arguments: { projectId },
  async run(ctx) {
    const now = Date.now();
    const tasks = await paginate<Task>(
      ctx.http,
      {
        path: '/tasks/completed/by_completion_date',
        query: {
          since: new Date(now - WEEK_MS).toISOString(),
          until: new Date(now).toISOString(),
          project_id: ctx.parameters.projectId,
          limit: 200,
        },
      },
      { ...byCursor, items: 'items' },
    );
    // A recurring or reopened task completes again: each completion is its own item.
    return tasks
      .sort(byLatest((task) => task.completed_at))
      .map((task) => ({ id: `${task.id}:${task.completed_at ?? ''}`, data: task }));
  },
});
