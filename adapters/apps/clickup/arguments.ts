import { dropdown, dynamicDropdown } from '../sdk/index.js';

export const workspaceId = dynamicDropdown({
  label: 'Workspace',
  required: true,
  dynamicData: 'listWorkspaces',
  acceptsVariables: true,
});

export const spaceIn = <const R extends boolean>(required: R) =>
  dynamicDropdown({
    label: 'Space',
    required,
    dynamicData: 'listSpaces',
    dependsOn: ['workspaceId'],
    acceptsVariables: true,
  });

export const folderIn = <const R extends boolean>(required: R, description?: string) =>
  dynamicDropdown({
    label: 'Folder',
    required,
    dynamicData: 'listFolders',
    dependsOn: ['spaceId'],
    acceptsVariables: true,
    ...(description !== undefined && { description }),
  });

export const listIn = <const R extends boolean>(required: R) =>
  dynamicDropdown({
    label: 'List',
    required,
    dynamicData: 'listLists',
    dependsOn: ['spaceId', 'folderId'],
    acceptsVariables: true,
  });

/** ClickUp's priorities, 1 the most urgent. */
export const priority = dropdown({
  label: 'Priority',
  options: [
    { label: 'Urgent', value: 1 },
    { label: 'High', value: 2 },
    { label: 'Normal', value: 3 },
    { label: 'Low', value: 4 },
  ],
});

/** ClickUp takes dates as Unix milliseconds; Automatisch's fields take them as text. */
export const millis = (value: string | undefined) => {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  if (Number.isFinite(number)) return number;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
};

export const dateMessage = (value: string | undefined) =>
  value !== undefined && value.trim() !== '' && millis(value) === undefined
    ? 'must be Unix milliseconds or an ISO 8601 date.'
    : null;
