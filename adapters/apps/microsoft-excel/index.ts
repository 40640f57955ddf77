import { GRAPH_API, listDrives } from '../microsoft-common/index.js';
import { defineApp } from '../sdk/index.js';
import { addTableRow } from './add-table-row.js';
import { excelAuth } from './auth.js';
import { icon } from './icon.js';
import { newTableRow, newWorksheet } from './triggers.js';
import { listTables, listWorkbooks, listWorksheets } from './workbook.js';
import { addWorksheet, updateRange } from './worksheet-actions.js';

export const microsoftExcel = defineApp({
  key: 'microsoft-excel',
  name: 'Microsoft Excel',
  description: 'Rows, tables and worksheets of Excel workbooks in OneDrive and SharePoint (Microsoft 365).',
  icon,
  primaryColor: '#217346',
  categories: ['productivity', 'data-and-databases'],
  version: 1,
  auth: excelAuth,
  triggers: [newTableRow, newWorksheet],
  actions: [addTableRow, addWorksheet, updateRange],
  dynamicData: { listDrives, listWorkbooks, listWorksheets, listTables },
  http: { baseUrl: GRAPH_API },
});
