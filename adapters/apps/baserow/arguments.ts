import { dynamicDropdown, keyValueList } from '../sdk/index.js';

export const tableId = dynamicDropdown({
  label: 'Table',
  required: true,
  dynamicData: 'listTables',
  acceptsVariables: true,
});

export const rowId = dynamicDropdown({
  label: 'Row',
  required: true,
  dynamicData: 'listRows',
  dependsOn: ['tableId'],
  acceptsVariables: true,
});

export const values = keyValueList({
  label: 'Fields and values',
  required: true,
  description: 'By field name; a JSON list for link rows and multiple selects ([1, 2]).',
  acceptsVariables: true,
});
