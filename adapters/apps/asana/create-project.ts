import { dropdown, dynamicDropdown, restAction, text } from '../sdk/index.js';
import { unwrap } from './api.js';
import { followerIds, listOrNothing, notesField, workspaceId, yesNo } from './arguments.js';

/** Automatisch's arguments, key for key. */
export const createProject = restAction({
  key: 'createProject',
  name: 'Create project',
  description: 'Creates a project in a workspace (in a team, for organizations); outputs the project.',
  arguments: {
    workspaceId,
    teamId: dynamicDropdown({
      label: 'Team',
      dynamicData: 'listTeams',
      dependsOn: ['workspaceId'],
      description: 'Required in organizations.',
      acceptsVariables: true,
    }),
    dueDate: text({ label: 'Due date', description: 'A date: 2025-09-15.', acceptsVariables: true }),
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    notes: text({ label: 'Notes', description: 'HTML when it is rich text.', acceptsVariables: true }),
    richText: yesNo('Are the notes rich text?'),
    defaultView: dropdown({
      label: 'Default view',
      options: [
        { label: 'List', value: 'list' },
        { label: 'Board', value: 'board' },
        { label: 'Calendar', value: 'calendar' },
        { label: 'Timeline', value: 'timeline' },
      ],
    }),
    ownerId: dynamicDropdown({
      label: 'Owner',
      dynamicData: 'listUsers',
      dependsOn: ['workspaceId'],
      acceptsVariables: true,
    }),
    followerIds,
  },
  request: (p) => ({
    method: 'POST',
    path: '/projects',
    body: {
      data: {
        workspace: p.workspaceId,
        team: p.teamId,
        due_on: p.dueDate,
        name: p.name,
        ...notesField(p.notes, p.richText),
        default_view: p.defaultView,
        owner: p.ownerId,
        // Asana takes a project's followers as a list of gids, separated by commas.
        followers: listOrNothing(p.followerIds)?.join(','),
      },
    },
  }),
  output: unwrap,
});
