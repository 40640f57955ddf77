import { dynamicDropdown, segment } from '../sdk/index.js';

/** Automatisch's `projectId`: a project's numeric id (or its `group/project` path), listed by `listProjects`. */
export const projectArgument = (acceptsVariables = true) =>
  dynamicDropdown({
    label: 'Project',
    required: true,
    description: 'The project id, or its path (group/project).',
    dynamicData: 'listProjects',
    acceptsVariables,
  });

/** `/projects/<id or encoded path>`. */
export const projectPath = (projectId: string): string => `/projects/${segment(projectId.trim())}`;

/** The project a dynamic dropdown depends on, once one is chosen in the editor. */
export const draftProject = (parameters: Readonly<Record<string, unknown>>): string | null => {
  const value = parameters.projectId;
  return (typeof value === 'string' && value.trim() !== '') || typeof value === 'number' ? String(value) : null;
};
