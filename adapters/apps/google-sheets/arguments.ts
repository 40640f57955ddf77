import { driveArgument } from '../google-common/index.js';
import { dynamicDropdown } from '../sdk/index.js';

/** Automatisch's `driveId`, `spreadsheetId` and `worksheetId`, each listing from the one before. */
export const drive = driveArgument('spreadsheet');

export const spreadsheet = dynamicDropdown({
  label: 'Spreadsheet',
  required: true,
  description: 'The spreadsheets in your Google Drive.',
  acceptsVariables: true,
  dynamicData: 'listSpreadsheets',
  dependsOn: ['driveId'],
});

const worksheetArgument = (description: string) =>
  dynamicDropdown({
    label: 'Worksheet',
    required: true,
    description,
    acceptsVariables: true,
    dynamicData: 'listWorksheets',
    dependsOn: ['spreadsheetId'],
  });

export const worksheet = worksheetArgument('The worksheets in your selected spreadsheet.');

/** For the rows trigger, which reads the first row as headers. */
export const worksheetWithHeaders = worksheetArgument(
  'The worksheets in your selected spreadsheet. You must have column headers.',
);
