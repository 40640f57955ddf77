import { dynamicDropdown } from '../sdk/index.js';

export const baseId = dynamicDropdown({
  label: 'Base',
  required: true,
  dynamicData: 'listBases',
  acceptsVariables: true,
});

export const tableId = dynamicDropdown({
  label: 'Table',
  required: true,
  dynamicData: 'listTables',
  dependsOn: ['baseId'],
  acceptsVariables: true,
});
