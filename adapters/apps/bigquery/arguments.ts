import { dynamicDropdown } from '../sdk/index.js';

export const project = dynamicDropdown({
  label: 'Project',
  required: true,
  acceptsVariables: true,
  dynamicData: 'listProjects',
});

export const dataset = dynamicDropdown({
  label: 'Dataset',
  required: true,
  acceptsVariables: true,
  dynamicData: 'listDatasets',
  dependsOn: ['projectId'],
});

export const table = dynamicDropdown({
  label: 'Table',
  required: true,
  acceptsVariables: true,
  dynamicData: 'listTables',
  dependsOn: ['projectId', 'datasetId'],
});
