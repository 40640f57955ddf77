import { dropdown, dynamicDropdown, dynamicMultiSelect } from '../sdk/index.js';

export const workspaceId = dynamicDropdown({
  label: 'Workspace',
  required: true,
  dynamicData: 'listWorkspaces',
  acceptsVariables: true,
});

export const projectIn = <const R extends boolean>(required: R) =>
  dynamicDropdown({
    label: 'Project',
    required,
    dynamicData: 'listProjects',
    dependsOn: ['workspaceId'],
    acceptsVariables: true,
  });

/** A workspace's users, several: Automatisch saved them as rows of `followerId`. */
export const followerIds = dynamicMultiSelect({
  label: 'Followers',
  dynamicData: 'listUsers',
  dependsOn: ['workspaceId'],
  rowKey: 'followerId',
});

/** Automatisch's yes/no dropdowns, whose values are the texts `true` and `false`. */
export const yesNo = (label: string) =>
  dropdown({
    label,
    options: [
      { label: 'No', value: 'false' },
      { label: 'Yes', value: 'true' },
    ],
  });

/** Asana's rich text is HTML inside a `<body>` element. */
export const notesField = (text: string | undefined, richText: string | undefined) => {
  if (text === undefined) return {};
  if (richText !== 'true') return { notes: text };
  return { html_notes: /^\s*<body>/.test(text) ? text : `<body>${text}</body>` };
};

/** Text lists and ids the user left empty are not sent. */
export const listOrNothing = (values: readonly string[] | undefined) =>
  values && values.length > 0 ? values : undefined;
