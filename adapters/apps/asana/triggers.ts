import { defineTrigger, dynamicDropdown } from '../sdk/index.js';
import { listAll } from './api.js';
import { projectIn, workspaceId } from './arguments.js';

type Dated = { gid: string; created_at?: string; completed?: boolean; completed_at?: string | null };

const TASK_FIELDS =
  'name,notes,assignee.name,assignee.email,completed,completed_at,created_at,due_on,due_at,modified_at,permalink_url,projects.name,tags.name';

/** Asana lists in its own order: the triggers sort by the time that makes an entry new. */
const newestBy = (at: (entry: Dated) => string | null | undefined) => (entries: Dated[]) =>
  entries.sort((a, b) => (at(b) ?? '').localeCompare(at(a) ?? ''));

export const newTask = defineTrigger({
  key: 'newTask',
  name: 'New task',
  description: 'Starts the flow for each task added to a project.',
  type: 'polling',
  arguments: { workspaceId, projectId: projectIn(true) },
  async run(ctx) {
    // completed_since=now: the project's incomplete tasks only, where new tasks are.
    const tasks = await listAll<Dated>(ctx.http, '/tasks', {
      project: ctx.parameters.projectId,
      completed_since: 'now',
      opt_fields: TASK_FIELDS,
    });
    return newestBy((task) => task.created_at)(tasks).map((task) => ({ id: task.gid, data: task }));
  },
});

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export const completedTask = defineTrigger({
  key: 'completedTask',
  name: 'Completed task',
  description: 'Starts the flow each time a task of a project is completed.',
  type: 'polling',
  arguments: { workspaceId, projectId: projectIn(true) },
  async run(ctx) {
    const tasks = await listAll<Dated>(ctx.http, '/tasks', {
      project: ctx.parameters.projectId,
      completed_since: new Date(Date.now() - WEEK_MS).toISOString(),
      opt_fields: TASK_FIELDS,
    });
    // A task completed, reopened and completed again starts a run for each completion.
    return newestBy((task) => task.completed_at)(tasks.filter((task) => task.completed && task.completed_at)).map(
      (task) => ({ id: `${task.gid}:${task.completed_at}`, data: task }),
    );
  },
});

export const newProject = defineTrigger({
  key: 'newProject',
  name: 'New project',
  description: 'Starts the flow for each project created in a workspace, or in one of its teams.',
  type: 'polling',
  arguments: {
    workspaceId,
    teamId: dynamicDropdown({ label: 'Team', dynamicData: 'listTeams', dependsOn: ['workspaceId'] }),
  },
  async run(ctx) {
    const projects = await listAll<Dated>(ctx.http, '/projects', {
      workspace: ctx.parameters.workspaceId,
      team: ctx.parameters.teamId,
      archived: 'false',
      opt_fields: 'name,created_at,owner.name,team.name,permalink_url,due_on,notes',
    });
    return newestBy((project) => project.created_at)(projects).map((project) => ({ id: project.gid, data: project }));
  },
});
