import { defineAction, segment, text } from '../sdk/index.js';
import { type Compact, listAll } from './api.js';
import { projectIn, workspaceId } from './arguments.js';

/** Asana has no search by exact name outside premium plans: the list is read and matched here. */
const named = <T extends Compact>(entries: readonly T[], name: string) =>
  entries.find((entry) => entry.name === name) ?? null;

export const findProject = defineAction({
  key: 'findProject',
  name: 'Find project',
  description: 'Finds a project of a workspace by its exact name; outputs it, or null when none has that name.',
  arguments: { workspaceId, name: text({ label: 'Name', required: true, acceptsVariables: true }) },
  async run(ctx) {
    const projects = await listAll(ctx.http, '/projects', {
      workspace: ctx.parameters.workspaceId,
      opt_fields: 'name,archived,color,created_at,due_on,owner,permalink_url,team,workspace',
    });
    return named(projects, ctx.parameters.name);
  },
});

export const findTaskInProject = defineAction({
  key: 'findTaskInProject',
  name: 'Find task in a project',
  description: 'Finds a task of a project by its exact name; outputs it, or null when none has that name.',
  arguments: {
    workspaceId,
    projectId: projectIn(true),
    taskName: text({ label: 'Task name', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    const tasks = await listAll(ctx.http, `/projects/${segment(ctx.parameters.projectId)}/tasks`, {
      opt_fields: 'name,assignee,completed,completed_at,created_at,due_on,due_at,notes,permalink_url',
    });
    return named(tasks, ctx.parameters.taskName);
  },
});
