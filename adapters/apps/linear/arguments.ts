import { dropdown, dynamicDropdown, dynamicMultiSelect, text } from '../sdk/index.js';

export const teamArgument = <const R extends boolean>(required: R) =>
  dynamicDropdown({ label: 'Team', required, dynamicData: 'listTeams' });

/** Linear takes an issue's UUID or its identifier (`ENG-123`) wherever it asks for an issue id. */
export const issueIdArgument = () =>
  text({ label: 'Issue', required: true, placeholder: 'ENG-123', acceptsVariables: true });

export const priorityArgument = () =>
  dropdown({
    label: 'Priority',
    options: [
      { label: 'No priority', value: 0 },
      { label: 'Urgent', value: 1 },
      { label: 'High', value: 2 },
      { label: 'Medium', value: 3 },
      { label: 'Low', value: 4 },
    ],
  });

export const stateArgument = () =>
  dynamicDropdown({
    label: 'Status',
    dynamicData: 'listWorkflowStates',
    dependsOn: ['teamId'],
    acceptsVariables: true,
  });

export const assigneeArgument = () =>
  dynamicDropdown({ label: 'Assignee', dynamicData: 'listUsers', acceptsVariables: true });

export const labelsArgument = () =>
  dynamicMultiSelect({ label: 'Labels', dynamicData: 'listLabels', dependsOn: ['teamId'] });
