import { GOOGLE_APIS, listDrives, withGoogleRateLimits } from '../google-common/index.js';
import { type AuthDefinition, defineApp } from '../sdk/index.js';
import { googleSheetsAuth, googleSheetsServiceAccountAuth } from './auth.js';
import { createSpreadsheet } from './create-spreadsheet.js';
import { createSpreadsheetRow } from './create-spreadsheet-row.js';
import { createWorksheet } from './create-worksheet.js';
import { listSpreadsheets, listWorksheets } from './dynamic-data.js';
import { listCreateWorksheetFields, listSheetHeaders } from './dynamic-fields.js';
import { findWorksheet } from './find-worksheet.js';
import { icon } from './icon.js';
import { newSpreadsheetRows, newSpreadsheets, newWorksheets } from './triggers.js';

const sheetsApp = (variant: { key: string; name: string; description: string; auth: AuthDefinition }) =>
  withGoogleRateLimits(
    defineApp({
      ...variant,
      icon,
      primaryColor: '#0f9d58',
      categories: ['productivity', 'data-and-databases'],
      version: 1,
      triggers: [newSpreadsheets, newWorksheets, newSpreadsheetRows],
      actions: [createSpreadsheet, createSpreadsheetRow, createWorksheet, findWorksheet],
      dynamicData: { listDrives, listSpreadsheets, listWorksheets },
      dynamicFields: { listSheetHeaders, listCreateWorksheetFields },
      http: { baseUrl: GOOGLE_APIS.sheets, relatedApis: [GOOGLE_APIS.www, GOOGLE_APIS.people] },
    }),
  );

export const googleSheets = sheetsApp({
  key: 'google-sheets',
  name: 'Google Sheets',
  description: 'Add rows to spreadsheets, create worksheets, and start flows from new rows and sheets.',
  auth: googleSheetsAuth,
});

/** The same app signed in as a service account: what a user shares with its address, no consent screen. */
export const googleSheetsServiceAccount = sheetsApp({
  key: 'google-sheets-service-account',
  name: 'Google Sheets Service Account',
  description: 'Google Sheets as a service account: share the spreadsheets with its e-mail address.',
  auth: googleSheetsServiceAccountAuth,
});
